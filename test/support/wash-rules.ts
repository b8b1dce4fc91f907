/**
 * The wash-trade rules, written again from their statement for the tests to check the
 * index's stored flags against: each sale's bits (the buyer is the seller: 1; the token
 * went the other way between the two within 30 days: 2; the buyer (4) or the seller (8)
 * traded it 3 times or more within 30 days either side). Who sold and who bought is who
 * held the token before and after.
 */
export interface Trade {
  token: string | number;
  from: string;
  to: string;
  ts: number;
}

const WINDOW = 30 * 86_400;

export function washBitsOf<T extends Trade>(sales: readonly T[]): Map<T, number> {
  const byToken = new Map<string, T[]>();
  for (const sale of sales) {
    const list = byToken.get(String(sale.token)) ?? [];
    list.push(sale);
    byToken.set(String(sale.token), list);
  }
  const bits = new Map<T, number>();
  for (const sale of sales) {
    const near = byToken
      .get(String(sale.token))!
      .filter((other) => Math.abs(other.ts - sale.ts) <= WINDOW);
    const trades = (wallet: string) =>
      near.filter((other) => other.from === wallet || other.to === wallet).length;
    const roundTrip = near.some(
      (other) => other !== sale && other.from === sale.to && other.to === sale.from,
    );
    bits.set(
      sale,
      (sale.from === sale.to ? 1 : 0) |
        (roundTrip ? 2 : 0) |
        (trades(sale.to) >= 3 ? 4 : 0) |
        (trades(sale.from) >= 3 ? 8 : 0),
    );
  }
  return bits;
}
