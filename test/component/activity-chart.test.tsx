import { render } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ActivityChart } from '../../src/components/activity-chart';
import chart from '../../src/components/activity-chart.module.css';
import type * as Time from '../../src/lib/time';
import { formatAbsolute } from '../../src/lib/time';
import type { TokenEvent } from '../../src/lib/token-event';

// Counts the chart's date formatting: one call per bar drawn (its tooltip), two per chart.
vi.mock('../../src/lib/time', async (importOriginal) => {
  const actual = await importOriginal<typeof Time>();
  return { ...actual, formatAbsolute: vi.fn(actual.formatAbsolute) };
});

const DAY = 86_400;
const LAST_DAY = 1_750_032_000; // a midnight UTC

/** `days` days of events, newest last, a few of each kind a day. */
function days(first: number, count: number) {
  const list: Pick<TokenEvent, 'kind' | 'timestamp'>[] = [];
  for (let day = first; day < first + count; day += 1) {
    const start = LAST_DAY - day * DAY;
    for (const [offset, kind] of (['mint', 'transfer', 'transfer', 'sale'] as const).entries()) {
      list.push({
        kind: day % 3 === 0 && offset === 0 ? 'burn' : kind,
        timestamp: start + offset * 600,
      });
    }
  }
  return list;
}

const bars = (container: HTMLElement) =>
  [...container.querySelectorAll('svg g g')].map((bar) => ({
    title: bar.querySelector('title')?.textContent,
    rects: [...bar.querySelectorAll('rect')].map((rect) =>
      ['class', 'x', 'y', 'width', 'height'].map((name) => rect.getAttribute(name)).join(' '),
    ),
  }));

describe('ActivityChart', () => {
  beforeEach(() => {
    vi.mocked(formatAbsolute).mockClear();
  });

  it('draws a bar per day, stacked by kind, with its date and total', () => {
    const { container, getByRole } = render(<ActivityChart events={days(0, 20)} partial />);
    expect(getByRole('img').getAttribute('aria-label')).toMatch(/^80 events per day from /);
    const drawn = bars(container);
    expect(drawn).toHaveLength(20);
    expect(drawn[0]?.title).toMatch(/: 4 events$/);
    // Each kind's bar has its kind's class (activity-chart.module.css).
    expect(drawn[0]?.rects.map((rect) => rect.split(' ')[0])).toEqual([
      chart.mint,
      chart.transfer,
      chart.sale,
    ]);
  });

  it('adding older days redraws only the bars that changed; the rest keep every attribute', () => {
    const newer = days(0, 20);
    const { container, rerender } = render(<ActivityChart events={newer} partial />);
    const before = bars(container);
    const transform = container.querySelector('svg > g')?.getAttribute('transform');
    vi.mocked(formatAbsolute).mockClear();

    // A page of older events, as "Load full history" appends them.
    rerender(<ActivityChart events={[...newer, ...days(20, 5)]} partial />);
    const after = bars(container);
    expect(after).toHaveLength(25);
    // The twenty days already drawn are exactly as they were, at the end of the chart.
    expect(after.slice(5)).toEqual(before);
    // Only the scale moved them: the shared transform changed.
    expect(container.querySelector('svg > g')?.getAttribute('transform')).not.toBe(transform);
    // Two dates for the caption, one tooltip per new bar, none for the twenty unchanged.
    expect(vi.mocked(formatAbsolute).mock.calls).toHaveLength(2 + 5);
  });
});
