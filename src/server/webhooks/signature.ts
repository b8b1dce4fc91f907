import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Deliveries are signed as Standard Webhooks (standardwebhooks.com) says, so its
 * libraries verify them: the secret is `whsec_` and base64 of random bytes; the signature
 * is HMAC-SHA256, keyed by those bytes, over `webhook-id.webhook-timestamp.body`, sent as
 * `webhook-signature: v1,<base64>`.
 */
const PREFIX = 'whsec_';

export function newSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header's value for one delivery. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`);
  return `v1,${mac.digest('base64')}`;
}

/**
 * What a receiver does: the signature recomputed and compared in constant time with each
 * one the header lists (space-separated), the timestamp within `toleranceSeconds` of now
 * (an old delivery replayed is refused).
 */
export function verify(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    return false;
  }
  const expected = Buffer.from(sign(secret, headers.id, timestamp, body));
  return headers.signature.split(' ').some((each) => {
    const given = Buffer.from(each);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
