/**
 * Whether an error means the database failed (it is down, unreachable, out of disk,
 * damaged), as opposed to a fault in our own code: the first is answered 503 naming the
 * database, so neither the reader nor an operator blames the Token Events Service.
 */
export type DatabaseFailure = 'down' | 'full' | 'damaged';

// SQLSTATE classes: 08 connection, 57 operator intervention (shutdown, crash), 53
// insufficient resources (53100: disk full), 58 system error (I/O), XX internal (data
// corrupted).
const SQLSTATE = /^[0-9A-Z]{5}$/;
const CONNECTION_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Query read timeout|Client was closed|Cannot use a pool after calling end|connection error/i;
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

export function databaseFailure(error: unknown): DatabaseFailure | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string' && SQLSTATE.test(code)) {
    if (code.startsWith('53')) return 'full';
    if (code.startsWith('XX') || code.startsWith('58')) return 'damaged';
    if (code.startsWith('08') || code.startsWith('57')) return 'down';
    return null;
  }
  if (typeof code === 'string' && SOCKET_CODES.has(code) && syscall === 'connect') return 'down';
  return CONNECTION_MESSAGES.test(error.message) ? 'down' : null;
}

export const DATABASE_FAILURE_MESSAGES: Record<DatabaseFailure, string> = {
  down: 'The dashboard’s own database is not answering; the Token Events Service is not at fault. Try again shortly.',
  full: 'The dashboard’s own database cannot write: its disk is full. What is stored can still be read.',
  damaged:
    'The dashboard’s own database met damaged data and refused to serve it; the operator has been told.',
};
