import { z } from 'zod';
import { API_ERROR_KINDS, type ApiErrorBody } from '../../lib/error-body';
import type { ApiRouteSpec } from './api-routes';

/**
 * The API document (OpenAPI 3.1) made from the route table and the zod schemas that check
 * each route's parameters: what the server checks is what the document says.
 */

/** The one error body (src/lib/error-body.ts) as a schema; the type check below binds them. */
const errorBody = z.strictObject({
  error: z.strictObject({
    kind: z.enum(API_ERROR_KINDS),
    message: z.string(),
    status: z.int(),
    retryAfterSeconds: z
      .number()
      .min(0)
      .describe('How long to wait before asking again, when the server knows.')
      .optional(),
  }),
});
// Fails to compile when the schema and the shared type drift apart, either way.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const errorBodyMatches: Same<z.infer<typeof errorBody>, ApiErrorBody> = true;
void errorBodyMatches;

const STATUS_WORDS: Record<number, string> = {
  400: 'A parameter is not valid (`bad_request`): the message says what it accepts.',
  401: "The operator's token is missing or wrong (`unauthorized`): send `Authorization: Bearer <WEBHOOK_TOKEN>`.",
  404: 'Not a collection the service lists, nothing to show, or webhooks off on this server (`not_found`).',
  429: 'Too many requests from this client (`client_rate_limited`), or the service throttles the server (`rate_limited`); see `Retry-After`.',
  500: 'A failure of this server (`internal`).',
  502: 'The service failed, cannot be reached or sent a page that cannot be read.',
  503: 'This server cannot take the request now (`busy`) or its database failed (`database`); see `Retry-After`.',
  504: 'The service did not answer in time (`timeout`).',
};

type JsonSchema = Record<string, unknown>;

/** A zod schema as the JSON schema of what a request sends (before transforms). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function parameters(route: ApiRouteSpec) {
  const inPath = Object.entries(route.pathParams ?? {}).map(([name, { schema, sample }]) => {
    const { description, ...rest } = inputSchema(schema);
    return {
      name,
      in: 'path',
      required: true,
      description,
      schema: rest,
      // What an example of it is, for the docs page to fill from this server's data.
      'x-sample': sample,
    };
  });
  const query = route.query ? inputSchema(route.query) : { properties: {} };
  const required = new Set((query.required as string[] | undefined) ?? []);
  const inQuery = Object.entries((query.properties ?? {}) as Record<string, JsonSchema>).map(
    ([name, { description, ...rest }]) => ({
      name,
      in: 'query',
      required: required.has(name),
      ...(description !== undefined && { description }),
      schema: rest,
      ...(route.querySamples?.[name] && { 'x-sample': route.querySamples[name] }),
    }),
  );
  return [...inPath, ...inQuery];
}

// What an EventSource sends when it opens a dropped stream again.
const LAST_EVENT_ID = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description: 'The id of the last event received: the stream goes on after it.',
  schema: { type: 'string' },
};

function operation(name: string, route: ApiRouteSpec) {
  const { answer } = route;
  const read = route.method === undefined;
  const content =
    answer.kind === 'json'
      ? { 'application/json': { schema: { type: 'object' } } }
      : answer.kind === 'stream'
        ? { 'text/event-stream': { schema: { type: 'string' } } }
        : Object.fromEntries(
            answer.types.map((type) => [
              type,
              { schema: type === 'application/json' ? { type: 'object' } : { type: 'string' } },
            ]),
          );
  return {
    operationId: name,
    summary: route.summary,
    tags: [route.group],
    parameters: [...parameters(route), ...(answer.kind === 'stream' ? [LAST_EVENT_ID] : [])],
    ...(route.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: inputSchema(route.body) } },
      },
    }),
    ...(route.token && { security: [{ operatorToken: [] }] }),
    responses: {
      [route.method === 'post' ? 201 : 200]: {
        description: answer.description,
        headers: answer.kind === 'json' ? { ETag: { $ref: '#/components/headers/ETag' } } : {},
        content,
      },
      ...(answer.kind === 'json' &&
        read && {
          304: { description: 'Unchanged since the `ETag` named in `If-None-Match`.' },
        }),
      ...Object.fromEntries(
        route.errors.map((status) => [status, { $ref: `#/components/responses/${status}` }]),
      ),
    },
  };
}

/** The OpenAPI 3.1 document of every route in the table. */
export function openApiDocument(routes: Record<string, ApiRouteSpec>, version: string) {
  const statuses = [...new Set(Object.values(routes).flatMap((route) => route.errors))].sort();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Token activity dashboard API',
      version,
      description:
        "Whole-history answers about NFT collections on Starknet, from the index this server keeps of the Token Events Service. GET and HEAD for all; any origin may read it (CORS), within the per-client limits. JSON answers carry an ETag and answer 304 to If-None-Match. Webhooks (POST and DELETE too) are for the operator's token alone.",
    },
    paths: pathsOf(routes),
    components: {
      schemas: { Error: inputSchema(errorBody) },
      securitySchemes: {
        operatorToken: {
          type: 'http',
          scheme: 'bearer',
          description: "The operator's `WEBHOOK_TOKEN`.",
        },
      },
      headers: {
        ETag: {
          description: 'A weak tag of the body: send it back in If-None-Match for a 304.',
          schema: { type: 'string' },
        },
      },
      responses: Object.fromEntries(
        statuses.map((status) => [
          status,
          {
            description: STATUS_WORDS[status] ?? `Status ${status}.`,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

/** Each path with its operations: GET unless the route says another method. */
function pathsOf(routes: Record<string, ApiRouteSpec>) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const [name, route] of Object.entries(routes)) {
    paths[route.path] = { ...paths[route.path], [route.method ?? 'get']: operation(name, route) };
  }
  return paths;
}
