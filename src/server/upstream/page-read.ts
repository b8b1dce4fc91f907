import { readPageEnvelope, type PageEnvelope } from '../../lib/page';
import type { UpstreamGate } from './gate';
import { parseJsonBody } from './json-body';
import { parseRetryAfter } from './retry-after';
import { awayFromTurn } from '../http/turn-context';
import { fetchUpstream, type Upstream } from './service-client';

/** Why no page could be had; `pageFailureError` says each in our words. */
export type PageFailure =
  | { kind: 'timeout' | 'unreachable' | 'broken' | 'too_large' | 'invalid' | 'busy' | 'aborted' }
  /** The visitor's share of today's requests to the service is spent (daily-share.ts). */
  | { kind: 'daily_share'; secondsLeft: number }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'status'; status: number; body: string; retryAfter: string | null };

export type UpstreamPage =
  | {
      kind: 'page';
      status: number;
      body: Uint8Array;
      envelope: PageEnvelope;
      /** The page's next cursor, when another page follows. */
      next: string | undefined;
    }
  | { kind: 'failed'; failure: PageFailure; upstreamStatus?: number | string };

/** What one upstream request came to, for the usage count and the metrics. */
export interface UpstreamRequestOutcome {
  /** The HTTP status, or why there was none (`timeout`, `unreachable`…). */
  status: number | string;
  durationMs: number;
}

export interface PageReaderOptions {
  upstream: Upstream;
  gate: UpstreamGate;
  timeoutMs: number;
  /** Told of every request sent upstream (not of those the gate turned away). */
  onRequest?: (outcome: UpstreamRequestOutcome) => void;
}

/**
 * One page from the upstream: through the gate (its turn, the rate budget and the
 * cool-down after a 429), then checked: only a complete JSON list envelope counts as a
 * page; anything else is a failure the browser is told about in words of ours. The record
 * log, the indexer and readiness all read the upstream this way.
 */
export function createPageReader(options: PageReaderOptions) {
  const { upstream, gate, timeoutMs, onRequest } = options;
  return async function readPage(
    path: string,
    client: string,
    signal?: AbortSignal,
  ): Promise<UpstreamPage> {
    // The wait for the service's answer is not the server's work: a request that waits
    // gives its turn to another meanwhile (http/turn-context.ts).
    const read = await awayFromTurn(async () => {
      const entry = await gate.enter(client, signal);
      if (entry.kind !== 'admitted') return entry;
      const started = performance.now();
      try {
        const result = await fetchUpstream(upstream, path, timeoutMs, signal);
        return { kind: 'read' as const, result, durationMs: performance.now() - started };
      } finally {
        entry.release();
      }
    });
    if (read.kind !== 'read') return { kind: 'failed', failure: read };
    const { result, durationMs } = read;
    if (result.kind !== 'ok') {
      onRequest?.({ status: result.kind, durationMs });
      return { kind: 'failed', failure: { kind: result.kind }, upstreamStatus: result.kind };
    }
    const { status, body, retryAfter } = result;
    onRequest?.({ status, durationMs });
    if (status === 429) gate.reportThrottled(parseRetryAfter(retryAfter));
    else gate.reportSuccess();
    if (status < 200 || status > 299) {
      const text = new TextDecoder().decode(body);
      return {
        kind: 'failed',
        failure: { kind: 'status', status, body: text, retryAfter },
        upstreamStatus: status,
      };
    }
    const envelope = envelopeOf(body);
    if (!envelope) return { kind: 'failed', failure: { kind: 'invalid' }, upstreamStatus: status };
    return { kind: 'page', status, body, envelope, next: envelope.cursor ?? undefined };
  };
}

export type PageReader = ReturnType<typeof createPageReader>;

/** A page is a list envelope, read as the browser reads it (lib/page.ts). */
function envelopeOf(body: Uint8Array): PageEnvelope | null {
  try {
    return readPageEnvelope(parseJsonBody(body));
  } catch {
    return null;
  }
}
