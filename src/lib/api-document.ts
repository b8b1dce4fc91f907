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
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
}

export interface ApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, { get: ApiOperation }>;
}

export type SampleKind =
  'collection' | 'wallet' | 'token' | 'transaction' | 'preview-page' | 'collection-page';

/** This server's examples of each kind: the busiest collection, one of its events' parties. */
export type Samples = Partial<Record<SampleKind, string>>;

export interface ApiRouteDoc extends ApiOperation {
  path: string;
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
  for (const [path, { get }] of Object.entries(document.paths)) {
    let unfilled = false;
    const filled = path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
      const kind = get.parameters.find((p) => p.in === 'path' && p.name === name)?.['x-sample'];
      const value = kind && samples[kind];
      if (!value) unfilled = true;
      return value ? encodeURIComponent(value) : whole;
    });
    const query = new URLSearchParams();
    for (const p of get.parameters) {
      if (p.in !== 'query' || !p['x-sample']) continue;
      const value = samples[p['x-sample']];
      if (value) query.set(p.name, value);
      else unfilled = true;
    }
    if (get.parameters.some((p) => p.in === 'query' && p.name === 'limit')) {
      query.set('limit', EXAMPLE_LIMIT);
    }
    const example = query.size > 0 ? `${filled}?${query}` : filled;
    const json = Object.keys(get.responses['200']?.content ?? {}).every(
      (type) => type === 'application/json',
    );
    const group = get.tags[0] ?? 'Other';
    const doc = { ...get, path, example, unfilled, json };
    groups.set(group, [...(groups.get(group) ?? []), doc]);
  }
  return [...groups];
}
