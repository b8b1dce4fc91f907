import type pg from 'pg';
import { DATABASE_FAILURE_MESSAGES, databaseFailure } from './database/database-error';
import type { ReadPools, ReplicaStatus } from './database/read-pools';
import { pageFailureError, type ErrorLimits } from './proxy/error-response';
import { BLOCKING, type ServerFaults } from './server-faults';
import type { UpstreamGate } from './upstream/gate';
import type { PageReader } from './upstream/page-read';

export type Readiness =
  | { ready: true; note?: string; coolingDownUntil?: string; replicas?: ReplicaStatus[] }
  | { ready: false; reason: string };

export interface ReadinessOptions {
  pool: pg.Pool;
  reads: ReadPools;
  read: PageReader;
  gate: Pick<UpstreamGate, 'stats'>;
  faults: ServerFaults;
  errorLimits: ErrorLimits;
  /** Deadline of the check, shorter than a page's so probes fail fast. */
  timeoutMs: number;
  /** How long an answer, good or bad, is given again without asking anew. */
  cacheMs: number;
}

// The smallest real request: proves the address, the key and the service all work.
const READY_PATH = '/v1/contracts?limit=1';
// Who asks, for the gate: readiness checks share a turn.
const READINESS_CLIENT = 'readiness';

/**
 * Whether the server can do its work (`/readyz`): the database answers, its disk is not
 * full, and the upstream answers a real request, through the same gate. An answer, good
 * or bad, is given again for `cacheMs`, and concurrent checks share one, so probes cannot
 * turn into upstream calls.
 */
export function createReadiness(options: ReadinessOptions): () => Promise<Readiness> {
  const { pool, reads, read, gate, faults, errorLimits, timeoutMs, cacheMs } = options;

  /** The work's result, or 'late' once the readiness deadline passes. */
  async function withinDeadline<T>(work: Promise<T>): Promise<T | 'late'> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), timeoutMs);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  }

  /** The database answers a query within the readiness deadline. */
  async function checkDatabase(): Promise<Readiness | null> {
    const answer = await withinDeadline(
      pool.query('SELECT 1').then(
        () => 'ok' as const,
        (error: unknown) => error,
      ),
    );
    if (answer === 'ok') return null;
    const failure = answer === 'late' ? 'down' : (databaseFailure(answer) ?? 'down');
    return { ready: false, reason: DATABASE_FAILURE_MESSAGES[failure] };
  }

  async function checkUpstream(): Promise<Readiness> {
    const database = await checkDatabase();
    if (database) return database;
    const disk = faults.list().find((fault) => fault.kind === 'disk');
    if (disk) return { ready: false, reason: disk.message };
    const outcome = await withinDeadline(read(READY_PATH, READINESS_CLIENT));
    if (outcome === 'late') {
      return {
        ready: false,
        reason: `The Token Events Service did not answer within ${timeoutMs} ms.`,
      };
    }
    const until = gate.stats().coolingDownUntil;
    const cooling = until === undefined ? {} : { coolingDownUntil: new Date(until).toISOString() };
    const notes = faults
      .list()
      .filter((fault) => !BLOCKING.includes(fault.kind))
      .map((fault) => fault.message);
    const note = notes.length > 0 ? { note: notes.join(' ') } : {};
    // Replicas down or behind leave the server ready: the primary answers their reads.
    const states = reads.states();
    const replicas = states.length > 0 ? { replicas: states } : {};
    if (outcome.kind === 'page') return { ready: true, ...note, ...cooling, ...replicas };
    const error = pageFailureError(outcome.failure, errorLimits);
    // Throttling is shared by every instance: failing readiness for it would take them all out.
    if (error.status === 429) return { ready: true, note: error.message, ...cooling };
    return { ready: false, reason: error.message };
  }

  let readiness: { answer: Promise<Readiness>; settledAt?: number } | undefined;
  return function checkReady(): Promise<Readiness> {
    const time = Date.now();
    const fresh =
      readiness && (readiness.settledAt === undefined || time - readiness.settledAt < cacheMs);
    if (readiness && fresh) return readiness.answer;
    const current: { answer: Promise<Readiness>; settledAt?: number } = {
      answer: checkUpstream(),
    };
    const settled = () => (current.settledAt = Date.now());
    current.answer.then(settled, settled);
    readiness = current;
    return current.answer;
  };
}
