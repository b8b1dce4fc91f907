import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Cursors of the query API: the position after the last row served (its sort values),
 * bound to the query it came from and signed, so a cursor never dies (it names values,
 * not a stored state) and cannot be moved to another query or forged. `query` is the
 * canonical text of the query's parameters, cursor excluded.
 */
export type KeysetValues = readonly (string | number | null)[];

const SIG_BYTES = 12;

export function createKeyset(secret: string) {
  const sign = (query: string, payload: string) =>
    createHmac('sha256', secret).update(`${query}\n${payload}`).digest().subarray(0, SIG_BYTES);
  return {
    encode(query: string, values: KeysetValues): string {
      const payload = Buffer.from(JSON.stringify(values)).toString('base64url');
      return `${payload}.${sign(query, payload).toString('base64url')}`;
    },
    /** The values of a cursor of this query, or null for anything else. */
    decode(query: string, cursor: string): KeysetValues | null {
      const [payload, signature, extra] = cursor.split('.');
      if (!payload || !signature || extra !== undefined || cursor.length > 2_000) return null;
      const given = Buffer.from(signature, 'base64url');
      const expected = sign(query, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const values: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString());
        const valid =
          Array.isArray(values) &&
          values.every((v) => v === null || typeof v === 'string' || typeof v === 'number');
        return valid ? (values as KeysetValues) : null;
      } catch {
        return null;
      }
    },
  };
}

export type Keyset = ReturnType<typeof createKeyset>;
