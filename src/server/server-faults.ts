import { pageFailureError, type ErrorLimits } from './proxy/error-response';
import type { PageReader } from './upstream/page-read';

/**
 * Faults that concern the whole server rather than one list: the service refuses the
 * key, the month's quota is spent or holds the background back, the database's disk is
 * full. Each is said in every answer's coverage, in `/readyz` where it stops the server
 * from doing its work, and once in the log when it begins and when it ends.
 */
export type FaultKind = 'key' | 'quota' | 'month' | 'disk';

export interface ServerFault {
  kind: FaultKind;
  message: string;
  /** When it began (ISO). */
  since: string;
}

/** Faults that leave the server unable to do its work: `/readyz` says not ready. */
export const BLOCKING: readonly FaultKind[] = ['key', 'disk'];

export function createServerFaults(log?: (line: string) => void, now = Date.now) {
  const faults = new Map<FaultKind, ServerFault>();
  return {
    set(kind: FaultKind, message: string) {
      if (faults.get(kind)?.message === message) return;
      faults.set(kind, { kind, message, since: new Date(now()).toISOString() });
      log?.(`Fault: ${message}`);
    },
    clear(kind: FaultKind) {
      const fault = faults.get(kind);
      if (!fault) return;
      faults.delete(kind);
      log?.(`Fault over (since ${fault.since}): ${fault.message}`);
    },
    list: (): ServerFault[] => [...faults.values()],
  };
}

export type ServerFaults = ReturnType<typeof createServerFaults>;

/**
 * The page reader, telling the server's faults what the service's answers say of the
 * whole server: a refused key (403), a spent monthly quota (429 `Limit Exceeded`); any
 * page read ends them.
 */
export function watchForFaults(
  read: PageReader,
  faults: ServerFaults,
  limits: ErrorLimits,
): PageReader {
  return async (path, client, signal) => {
    const result = await read(path, client, signal);
    if (result.kind === 'page') {
      faults.clear('key');
      faults.clear('quota');
    } else if (result.failure.kind === 'status' && result.failure.status === 403) {
      faults.set(
        'key',
        `${pageFailureError(result.failure, limits).message} Nothing new can be read; answers come from stored data.`,
      );
    } else if (
      result.failure.kind === 'status' &&
      result.failure.status === 429 &&
      /limit exceeded/i.test(result.failure.body.slice(0, 1000))
    ) {
      faults.set(
        'quota',
        'The API key’s monthly quota is spent: nothing new can be read until the service ' +
          'allows it again; answers come from stored data.',
      );
    }
    return result;
  };
}
