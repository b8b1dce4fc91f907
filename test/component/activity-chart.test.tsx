import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActivityChart } from '../../src/components/activity-chart';
import chart from '../../src/components/activity-chart.module.css';
import type { TokenEvent } from '../../src/lib/token-event';

const DAY = 86_400;
const LAST_DAY = 1_750_032_000; // 16 Jun 2025, midnight UTC

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

const bars = (container: HTMLElement) => [...container.querySelectorAll('svg > g > g')];
const barText = (bar: Element) =>
  [...bar.querySelectorAll('rect')]
    .map((rect) =>
      ['class', 'x', 'y', 'width', 'height'].map((n) => rect.getAttribute(n)).join(' '),
    )
    .join(' | ');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ActivityChart', () => {
  it('draws a bar per day, stacked by kind; each bar’s numbers a key away', async () => {
    const { container } = render(<ActivityChart events={days(0, 20)} partial />);
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      '80 events per day from 28 May 2025 – 16 Jun 2025 (UTC); busiest day: 28 May 2025, 4 events.',
    );
    expect(bars(container)).toHaveLength(20);
    // Each kind's bar has its kind's class (activity-chart.module.css).
    expect(
      [...bars(container)[0]!.querySelectorAll('rect')].map((rect) => rect.getAttribute('class')),
    ).toEqual([chart.mint, chart.transfer, chart.sale]);

    const slider = screen.getByRole('slider', { name: 'Bars, one per day' });
    await userEvent.tab();
    expect(slider).toHaveFocus();
    // The newest bar first; Home goes to the oldest.
    expect(slider).toHaveAttribute(
      'aria-valuetext',
      '16 Jun 2025: 4 events (2 transfers, 1 sale, 1 burn)',
    );
    await userEvent.keyboard('{Home}');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(screen.getByText('28 May 2025: 4 events (1 mint, 2 transfers, 1 sale)')).toBeVisible();
    // Axes: counts up the side, dates along the bottom.
    expect(container.textContent).toContain('28 May');
  });

  it('Enter and a click show one bar’s events', async () => {
    const onSelect = vi.fn();
    render(<ActivityChart events={days(0, 20)} partial onSelect={onSelect} />);
    const slider = screen.getByRole('slider');
    slider.focus();
    await userEvent.keyboard('{ArrowLeft}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith({ from: LAST_DAY - DAY, to: LAST_DAY });
    // A click at the left edge is the first bar (jsdom has no layout: the box is stubbed).
    vi.spyOn(slider, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 200, 120));
    fireEvent.click(slider, { clientX: 1 });
    expect(onSelect).toHaveBeenLastCalledWith({
      from: LAST_DAY - 19 * DAY,
      to: LAST_DAY - 18 * DAY,
    });
  });

  it('names a single day’s hours once, and its busiest hour by its time', () => {
    const hours = [0, 0, 1, 5].map((hour) => ({
      kind: 'transfer' as const,
      timestamp: LAST_DAY + hour * 3600 + 60,
    }));
    render(<ActivityChart events={hours} partial={false} />);
    expect(screen.getByText('16 Jun 2025, 00:00–06:00 UTC')).toBeInTheDocument();
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(
      /busiest hour: 16 Jun 2025, 00:00–01:00, 2 events\.$/,
    );
  });

  it('merges days into wider bars when the chart has less room than days', () => {
    // A phone's chart: 350 px, room for 58 bars of 6 px.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(private callback: () => void) {}
        observe() {
          this.callback();
        }
        disconnect() {}
      },
    );
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(350);
    const { container } = render(<ActivityChart events={days(0, 687)} partial />);
    expect(bars(container).length).toBeLessThanOrEqual(58);
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/ events per 2 weeks /);
  });

  it('says where burns show when the service lists none for a contract', () => {
    render(<ActivityChart events={days(1, 2)} partial burnsUnlisted />);
    expect(screen.getByText(/does not list burns in a contract’s events/)).toBeInTheDocument();
  });

  it('adding older days redraws only the bars that changed; the rest keep every attribute', () => {
    const newer = days(0, 20);
    const { container, rerender } = render(<ActivityChart events={newer} partial />);
    const before = bars(container);
    const drawn = before.map(barText);
    const transform = container.querySelector('svg > g')?.getAttribute('transform');
    const changed = new Set<Node>();
    const observer = new MutationObserver((records) => {
      for (const record of records) changed.add(record.target);
    });
    observer.observe(container.querySelector('svg > g')!, {
      subtree: true,
      attributes: true,
      childList: true,
    });

    // A page of older events, as "Load full history" appends them.
    rerender(<ActivityChart events={[...newer, ...days(20, 5)]} partial />);
    const records = observer.takeRecords();
    for (const record of records) changed.add(record.target);
    observer.disconnect();
    const after = bars(container);
    expect(after).toHaveLength(25);
    // The twenty days already drawn are the same elements, exactly as they were.
    expect(after.slice(5)).toEqual(before);
    expect(after.slice(5).map(barText)).toEqual(drawn);
    for (const bar of before) {
      expect(changed.has(bar)).toBe(false);
      for (const rect of bar.querySelectorAll('rect')) expect(changed.has(rect)).toBe(false);
    }
    // Only the scale moved them: the shared transform changed.
    expect(container.querySelector('svg > g')?.getAttribute('transform')).not.toBe(transform);
  });
});
