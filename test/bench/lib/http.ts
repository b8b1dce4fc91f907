import { request, type Agent } from 'node:http';
import type { Deadline } from './stats';

export interface PageInfo {
  /** The cursor this page was requested with (null: the first page). */
  cursor: string | null;
  items: number;
  bytes: number;
  next: string | null;
}

/**
 * Walks a list from its first page, following cursors, untimed. Bounded by `maxPages`
 * and the deadline; stops at the end of the list.
 */
export async function walkPages(options: {
  base: string;
  path: string;
  limit: number;
  maxPages: number;
  headers?: Record<string, string>;
  deadline: Deadline;
}): Promise<PageInfo[]> {
  const pages: PageInfo[] = [];
  let cursor: string | null = null;
  while (pages.length < options.maxPages && !options.deadline.passed()) {
    const response = await fetch(
      options.base + withPageParams(options.path, cursor, options.limit),
      { headers: options.headers },
    );
    const text = await response.text();
    if (!response.ok) throw new Error(`walk: ${response.status} ${text.slice(0, 200)}`);
    const body = JSON.parse(text) as { result?: unknown[] | null; cursor?: string | null };
    const next = body.cursor || null;
    pages.push({ cursor, items: body.result?.length ?? 0, bytes: Buffer.byteLength(text), next });
    if (!next) break;
    cursor = next;
  }
  return pages;
}

/**
 * One GET over a keep-alive agent, timed from the request to the last body byte
 * (what a client waits for). Rejects on a status other than 200.
 */
export function timedGet(
  agent: Agent,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; bytes: number }> {
  return new Promise((done, fail) => {
    const start = performance.now();
    const req = request(url, { agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
      });
      res.on('end', () => {
        if (res.statusCode !== 200) fail(new Error(`GET ${url}: ${res.statusCode}`));
        else done({ ms: performance.now() - start, bytes });
      });
      res.on('error', fail);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${url}: no answer in 30 s`)));
    req.on('error', fail);
    req.end();
  });
}

/** `path?cursor=…&limit=…` with only the parameters that are set. */
export function withPageParams(path: string, cursor: string | null, limit?: number): string {
  const params = new URLSearchParams();
  if (cursor) params.set('cursor', cursor);
  if (limit) params.set('limit', String(limit));
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
