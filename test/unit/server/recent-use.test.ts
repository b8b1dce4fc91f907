import { describe, expect, it } from 'vitest';
import { createRecentUse } from '../../../src/server/http/recent-use';

describe('recent use of the server', () => {
  it('adds charges and halves the sum every half-life', () => {
    const use = createRecentUse(1_000);
    use.charge('a', 80, 0);
    use.charge('a', 20, 0);
    expect(use.of('a', 0)).toBe(100);
    expect(use.of('a', 1_000)).toBeCloseTo(50);
    use.charge('a', 50, 2_000);
    expect(use.of('a', 2_000)).toBeCloseTo(75);
    expect(use.of('never seen', 2_000)).toBe(0);
  });

  it('forgets the longest unseen client past its bound', () => {
    const use = createRecentUse(1_000, 2);
    use.charge('a', 10, 0);
    use.charge('b', 10, 0);
    use.charge('a', 10, 1);
    use.charge('c', 10, 2);
    expect(use.of('b', 2)).toBe(0);
    expect(use.of('a', 2)).toBeGreaterThan(0);
    expect(use.of('c', 2)).toBeGreaterThan(0);
  });
});
