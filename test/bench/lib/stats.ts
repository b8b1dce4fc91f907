/** Nearest-rank percentile (p in 0..100) of unsorted numbers; NaN for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export const round = (value: number, digits = 2) => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

export const ms = (value: number, digits = 2) => `${round(value, digits)} ms`;
export const pct = (ratio: number) => `${round(ratio * 100, 1)}%`;
export const kb = (bytes: number) => `${round(bytes / 1024, 1)} KB`;
export const count = (value: number) => Math.round(value).toLocaleString('en');

/** Wall-clock budget shared by the whole run: every loop checks it. */
export class Deadline {
  private readonly end: number;
  constructor(ms: number) {
    this.end = Date.now() + ms;
  }
  left(): number {
    return this.end - Date.now();
  }
  passed(): boolean {
    return this.left() <= 0;
  }
  /** The sooner of `ms` from now and the deadline, for one step's own bound. */
  within(ms: number): number {
    return Math.max(0, Math.min(ms, this.left()));
  }
}

export async function time<T>(task: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await task();
  return { ms: performance.now() - start, value };
}
