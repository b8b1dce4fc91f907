/** A WAL position as PostgreSQL writes it (`16/B374D848`), as a number to compare. */
export function lsnValue(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/**
 * How far behind the primary a replica is, in time, from WAL positions alone. The
 * primary's position is sampled at each health check; a replica that has replayed up to
 * R is as far behind as the first sample past R is old (an underestimate by less than
 * one check's interval), and not behind at all when it has replayed the latest sample.
 *
 * Why not `now() - pg_last_xact_replay_timestamp()` alone: on a primary with nothing to
 * write that age grows for ever while the replica has everything; and after a quiet hour,
 * one new commit not replayed yet would count as an hour behind.
 */
export function createLagClock(keepMs: number) {
  // The time each position was first seen, oldest first, positions increasing.
  const samples: { at: number; lsn: bigint }[] = [];
  return {
    /** The primary's position at `at`. */
    primaryAt(at: number, lsn: bigint) {
      const last = samples.at(-1);
      if (!last || lsn > last.lsn) samples.push({ at, lsn });
      // The newest sample older than `keepMs` stays: lags past it still read as past it.
      while (samples.length > 1 && samples[1]!.at <= at - keepMs) samples.shift();
    },
    /** A replica's lag (ms) at `now`, having replayed up to `replay`. */
    lagMs(replay: bigint, now: number): number {
      const first = samples.find((sample) => sample.lsn > replay);
      return first ? Math.max(0, now - first.at) : 0;
    },
  };
}
