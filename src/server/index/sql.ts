/** A query's text and its numbered parameters, built together so they cannot drift apart. */
export class Sql {
  readonly values: unknown[] = [];
  /** `$n` for `value`. */
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A canonical address as stored (32 bytes). */
export const addressBytes = (address: string) => Buffer.from(address.slice(2), 'hex');

/** A stored address or hash as the app writes it; '' for an empty one (no transaction). */
export const hexOf = (bytes: Buffer | null): string =>
  bytes && bytes.length > 0 ? `0x${bytes.toString('hex')}` : '';
