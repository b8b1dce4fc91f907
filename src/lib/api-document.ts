/**
 * What the docs page reads of the server's API document (`/api/openapi.json`, made by
 * src/server/api/openapi.ts), and the example requests it builds from it.
 */
export interface ApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: { type?: string; enum?: string[]; default?: unknown };
  /** A path (or required query) parameter's kind of example: the page fills it from this server's data. */
  'x-sample'?: SampleKind;
}

export interface ApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters: ApiParameter[];
  /** The JSON body a route takes (webhooks'). */
  requestBody?: { content: Record<string, { schema: unknown }> };
  /** Present: only with the operator's token. */
  security?: unknown[];
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
}

export const API_METHODS = ['get', 'post', 'delete'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Partial<Record<ApiMethod, ApiOperation>>>;
}

/** What an example of a parameter is: the docs page fills it from this server's data. */
export type SampleKind =
  | 'collection'
  | 'wallet'
  | 'token'
  | 'transaction'
  | 'preview-page'
  | 'webhook'
  /** A collection's page on this server, whole (`https://…/contracts/0x…`). */
  | 'collection-page';

/** This server's examples of each kind: the busiest collection, one of its events' parties. */
export type Samples = Partial<Record<SampleKind, string>>;

export interface ApiRouteDoc extends ApiOperation {
  path: string;
  /** As HTTP writes it: GET, POST, DELETE. */
  method: string;
  /** Only with the operator's token: no sample is fetched. */
  needsToken: boolean;
  /** The answer of success: 200, or 201 for what makes something. */
  success: string;
  /** The example request: every path parameter filled, a short page where it pages. */
  example: string;
  /** Whether a path parameter had no example on this server yet (left as `{name}`). */
  unfilled: boolean;
  /** The answer is JSON (shown on demand), not a file or a picture. */
  json: boolean;
}

// Example pages are kept short: the sample answer is for reading, not for the whole list.
const EXAMPLE_LIMIT = '5';

/** Each documented route with its example, grouped by its tag in the document's order. */
export function routeDocs(document: ApiDocument, samples: Samples): [string, ApiRouteDoc[]][] {
  const groups = new Map<string, ApiRouteDoc[]>();
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    API_METHODS.flatMap((method) => {
      const operation = methods[method];
      return operation ? [{ path, method, operation }] : [];
    }),
  );
  for (const { path, method, operation } of operations) {
    let unfilled = false;
    const filled = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const kind = operation.parameters.find((p) => p.in === 'path' && p.name === name)?.[
        'x-sample'
      ];
      const value = kind && samples[kind];
      if (!value) unfilled = true;
      return value ? encodeURIComponent(value) : whole;
    });
    const query = new URLSearchParams();
    for (const p of operation.parameters) {
      if (p.in !== 'query' || !p['x-sample']) continue;
      const value = samples[p['x-sample']];
      if (value) query.set(p.name, value);
      else unfilled = true;
    }
    if (operation.parameters.some((p) => p.in === 'query' && p.name === 'limit')) {
      query.set('limit', EXAMPLE_LIMIT);
    }
    const example = query.size > 0 ? `${filled}?${query}` : filled;
    const success = operation.responses['201'] ? '201' : '200';
    const json = Object.keys(operation.responses[success]?.content ?? {}).every(
      (type) => type === 'application/json',
    );
    const group = operation.tags[0] ?? 'Other';
    const doc = {
      ...operation,
      path,
      method: method.toUpperCase(),
      needsToken: operation.security !== undefined,
      success,
      example,
      unfilled,
      json,
    };
    groups.set(group, [...(groups.get(group) ?? []), doc]);
  }
  return [...groups];
}
