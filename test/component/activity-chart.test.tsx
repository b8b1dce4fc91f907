import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActivityChart } from '../../src/components/activity-chart';
import styles from '../../src/components/activity-chart.module.css';
import { kindTones } from '../../src/components/badge';
import chart from '../../src/components/chart.module.css';
import type { CurrencyRef, SeriesBucket } from '../../src/lib/answers';
import { CURRENCIES } from '../../src/lib/price';

const HOUR = 3600;
const DAY = 86_400;
const JUNE = Date.UTC(2025, 5, 1) / 1000; // 1 Jun 2025, a Sunday
const ETH: CurrencyRef = {
  address: CURRENCIES[0]!.address,
  state: 'known',
  symbol: 'ETH',
  decimals: 18,
};
const STRK: CurrencyRef = {
  address: CURRENCIES[1]!.address,
  state: 'known',
  symbol: 'STRK',
  decimals: 18,
};

function bucket(
  start: number,
  counts: Partial<SeriesBucket['counts']>,
  volume: SeriesBucket['volume'] = [],
): SeriesBucket {
  return { start, counts: { mint: 0, transfer: 0, sale: 0, burn: 0, other: 0, ...counts }, volume };
}

/** `count` days from 1 June, a mint, two transfers and a sale of 1 ETH each. */
const days = (count: number) =>
  Array.from({ length: count }, (_, day) =>
    bucket(JUNE + day * DAY, { mint: 1, transfer: 2, sale: 1 }, [
      { currency: ETH, sales: 1, volume: '1000000000000000000' },
    ]),
  );

const bars = (container: HTMLElement) => [
  ...container.querySelectorAll(`svg.${styles.counts} > g:not(.${chart.grid})`),
];
const rectOf = (bar: Element) => bar.querySelector('rect')!;
const labels = (container: HTMLElement, className: string | undefined) =>
  [...container.querySelectorAll(`.${className} span`)].map((span) => span.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ActivityChart', () => {
  it('a chart of mints is titled so, counts, draws and lists mints alone, and has no sales panel', () => {
    const { container } = render(
      <ActivityChart
        buckets={days(5)}
        interval="day"
        range={{ from: JUNE, to: JUNE + 5 * DAY }}
        kind="mint"
        withVolume={false}
      />,
    );
    expect(screen.getByText('Mints per day')).toBeInTheDocument();
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^5 mints per day from/);
    // The legend names only the series drawn: no "Transfer 0", "Sale 0".
    const legend = container.querySelector(`figure ul.${chart.legend}`)!;
    expect([...legend.querySelectorAll('li')].map((item) => item.textContent?.trim())).toEqual([
      'Mint 5',
    ]);
    const drawn = bars(container).flatMap((bar) => [...bar.querySelectorAll('rect')]);
    expect(drawn).toHaveLength(5);
    for (const rect of drawn) expect(rect).toHaveClass(kindTones.mint!);
    expect(
      [...container.querySelectorAll(`.${chart.unit}`)].map((unit) => unit.textContent),
    ).toEqual(['mints']);
    expect(container.querySelector(`svg.${styles.volume}`)).toBeNull();
    expect(screen.queryByText(/Sales volume/)).toBeNull();
  });

  it('a row of currencies wider than its room fades at its end until scrolled there', async () => {
    // jsdom lays nothing out: the row is 200 px wide over 500 px of buttons.
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(200);
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(500);
    const volume = [
      { currency: ETH, sales: 2, volume: '1000000000000000000' },
      { currency: STRK, sales: 1, volume: '1000000000000000000' },
    ];
    render(
      <ActivityChart
        buckets={[bucket(JUNE, { sale: 3 }, volume)]}
        interval="day"
        range={{ from: JUNE, to: JUNE + 5 * DAY }}
      />,
    );
    const row = screen.getByRole('group', { name: /Sales volume per day in/ });
    await waitFor(() => expect(row).toHaveAttribute('data-more'));
    row.scrollLeft = 300;
    fireEvent.scroll(row);
    expect(row).not.toHaveAttribute('data-more');
  });

  it('names what its axes count: events, and the volume in its currency', () => {
    const { container } = render(
      <ActivityChart buckets={days(5)} interval="day" range={{ from: JUNE, to: JUNE + 5 * DAY }} />,
    );
    expect(
      [...container.querySelectorAll(`.${chart.unit}`)].map((unit) => unit.textContent),
    ).toEqual(['events', 'ETH']);
  });

  it('draws a bar per bucket, stacked by kind; each bar’s numbers a key away', async () => {
    const { container } = render(
      <ActivityChart
        buckets={[...days(20)].reverse()}
        interval="day"
        range={{ from: JUNE, to: JUNE + 20 * DAY }}
      />,
    );
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      '80 events per day from 1 Jun 2025 – 20 Jun 2025 (UTC); busiest day: 1 Jun 2025, 4 events.',
    );
    expect(bars(container)).toHaveLength(20);
    expect(
      [...bars(container)[0]!.querySelectorAll('rect')].map((rect) => rect.getAttribute('class')),
    ).toEqual([kindTones.mint, kindTones.transfer, kindTones.sale]);

    const slider = screen.getByRole('slider', { name: 'Bars, one per day' });
    await userEvent.tab();
    expect(slider).toHaveFocus();
    // The newest bar first; Home goes to the oldest.
    expect(slider).toHaveAttribute(
      'aria-valuetext',
      '20 Jun 2025: 4 events (1 mint, 2 transfers, 1 sale); volume 1 ETH',
    );
    await userEvent.keyboard('{Home}');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(
      screen.getByText('1 Jun 2025: 4 events (1 mint, 2 transfers, 1 sale); volume 1 ETH'),
    ).toBeVisible();
    expect(screen.getByText(/Mint 20/)).toBeInTheDocument();
  });

  it('Enter and a click narrow the table to one bar’s time', async () => {
    const onSelect = vi.fn();
    render(
      <ActivityChart
        buckets={days(20)}
        interval="day"
        range={{ from: JUNE, to: JUNE + 20 * DAY }}
        onSelect={onSelect}
      />,
    );
    const slider = screen.getByRole('slider');
    act(() => slider.focus());
    await userEvent.keyboard('{ArrowLeft}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith({ from: JUNE + 18 * DAY, to: JUNE + 19 * DAY });
    // A click at the left edge is the first bar (jsdom has no layout: the box is stubbed).
    vi.spyOn(slider, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 200, 120));
    fireEvent.click(slider, { clientX: 1 });
    expect(onSelect).toHaveBeenLastCalledWith({ from: JUNE, to: JUNE + DAY });
  });

  it('a tap shows the tapped bar’s numbers, though the finger leaves before the focus', () => {
    const onSelect = vi.fn();
    render(
      <ActivityChart
        buckets={days(20)}
        interval="day"
        range={{ from: JUNE, to: JUNE + 20 * DAY }}
        onSelect={onSelect}
      />,
    );
    const slider = screen.getByRole('slider');
    vi.spyOn(slider, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 200, 120));
    // A touch's events in the order a phone sends them: the pointer's, then focus and click.
    fireEvent.pointerDown(slider, { clientX: 1, pointerType: 'touch' });
    fireEvent.pointerLeave(slider, { clientX: 1, pointerType: 'touch' });
    act(() => slider.focus());
    fireEvent.click(slider, { clientX: 1 });
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(screen.getByText(/^1 Jun 2025: 4 events/)).toBeVisible();
    expect(onSelect).toHaveBeenLastCalledWith({ from: JUNE, to: JUNE + DAY });
  });

  it('labels the count axis in whole numbers only', () => {
    // Three events at most: the old axis said 1.5 half way.
    const { container } = render(
      <ActivityChart
        buckets={[bucket(JUNE, { transfer: 3 }), bucket(JUNE + DAY, { transfer: 1 })]}
        interval="day"
        range={{ from: JUNE, to: JUNE + 5 * DAY }}
      />,
    );
    expect(labels(container, styles.countAxis)).toEqual(['0', '1', '2', '3']);
  });

  it('labels dates at regular calendar steps, written for the step', () => {
    const { container } = render(
      <ActivityChart
        buckets={days(3)}
        interval="day"
        range={{ from: JUNE, to: JUNE + 30 * DAY }}
      />,
    );
    // On an axis of 800 px, a month is labelled each Monday, not at bars' starts.
    expect(labels(container, chart.times)).toEqual([
      '2 Jun',
      '9 Jun',
      '16 Jun',
      '23 Jun',
      '30 Jun',
    ]);
  });

  it('leaves out a date set inside an end when it would meet the next', () => {
    // A plot 931 px wide, as at 1024 px: jsdom lays nothing out, so the width is stubbed.
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
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(931);
    const to = Date.UTC(2025, 5, 20, 15, 20) / 1000;
    const { container } = render(
      <ActivityChart buckets={days(3)} interval="week" range={{ from: to - 365 * DAY, to }} />,
    );
    // 1 July 2024 is 25 px from the start, its label would reach into August's.
    const dates = labels(container, chart.times);
    expect(dates[0]).toBe('Aug 2024');
    expect(dates).toHaveLength(11);
  });

  it('ends the axis at the range’s end, with gaps where buckets have no events', () => {
    const now = JUNE + 20 * DAY + 7 * HOUR;
    const { container } = render(
      <ActivityChart
        // A bucket of today that runs past now, one in the middle, none between.
        buckets={[
          bucket(JUNE, { mint: 1 }),
          bucket(JUNE + 10 * DAY, { mint: 1 }),
          bucket(JUNE + 20 * DAY, { mint: 2 }),
        ]}
        interval="day"
        range={{ from: JUNE, to: now }}
      />,
    );
    const span = now - JUNE;
    const xs = bars(container).map((bar) => Number(rectOf(bar).getAttribute('x')));
    const width = Number(rectOf(bars(container)[0]!).getAttribute('width'));
    // Each bar stands where its day is (centred in it); the days between are empty.
    expect(xs[1]).toBeCloseTo(((10.5 * DAY) / span) * 800 - width / 2, 3);
    // Today's bar is cut at now, and the axis's last date is no later than now.
    const last = rectOf(bars(container)[2]!);
    const lastEnd = Number(last.getAttribute('x')) + Number(last.getAttribute('width'));
    expect(lastEnd).toBeLessThanOrEqual(800);
    expect(Number(last.getAttribute('width'))).toBeLessThan(width);
    expect(labels(container, chart.times)).toEqual(['2 Jun', '9 Jun', '16 Jun']);
  });

  it('draws an hour drilled into as a bar of sensible width, with minutes on the axis', () => {
    const hour = JUNE + 14 * HOUR;
    const { container } = render(
      <ActivityChart
        buckets={[bucket(hour, { transfer: 5 })]}
        interval="hour"
        range={{ from: hour, to: hour + HOUR }}
      />,
    );
    const width = Number(rectOf(bars(container)[0]!).getAttribute('width'));
    expect(width).toBeGreaterThan(10);
    expect(width).toBeLessThan(800 / 10);
    expect(labels(container, chart.times)).toContain('14:30');
  });

  it('shows the volume of one currency at a time, never added across currencies', async () => {
    const { container } = render(
      <ActivityChart
        buckets={[
          bucket(JUNE, { sale: 3 }, [
            { currency: ETH, sales: 2, volume: '3000000000000000000' },
            { currency: STRK, sales: 1, volume: '500000000000000000000' },
          ]),
          bucket(JUNE + DAY, { sale: 1 }, [
            { currency: ETH, sales: 1, volume: '500000000000000000' },
          ]),
        ]}
        interval="day"
        range={{ from: JUNE, to: JUNE + 2 * DAY }}
      />,
    );
    const choice = screen.getByRole('group', { name: 'Sales volume per day in' });
    const eth = within(choice).getByRole('button', { name: 'ETH' });
    const strk = within(choice).getByRole('button', { name: 'STRK' });
    // The currency with the most sales first; its axis in its units.
    expect(eth).toHaveAttribute('aria-pressed', 'true');
    expect(labels(container, styles.volumeAxis).at(-1)).toBe('4');
    await userEvent.click(strk);
    expect(strk).toHaveAttribute('aria-pressed', 'true');
    expect(labels(container, styles.volumeAxis).at(-1)).toBe('500');
    expect(container.querySelectorAll(`.${styles.volumeBar}`)).toHaveLength(1);
    // A bar's readout names each currency's volume on its own.
    act(() => screen.getByRole('slider').focus());
    await userEvent.keyboard('{Home}');
    expect(screen.getByRole('slider')).toHaveAttribute(
      'aria-valuetext',
      '1 Jun 2025: 3 sales; volume 3 ETH, 500 STRK',
    );
  });

  it('says what the index does not cover yet, and where burns show', () => {
    render(
      <ActivityChart
        buckets={days(2)}
        interval="day"
        range={{ from: JUNE, to: JUNE + 2 * DAY }}
        partial="Indexed back to 1 Jun 2025; older events are still being read."
        burnsUnlisted
      />,
    );
    expect(screen.getByText(/older events are still being read/)).toBeInTheDocument();
    expect(screen.getByText(/does not list burns in a contract’s events/)).toBeInTheDocument();
  });

  it('keeps its rows while loading, without bars or a slider', () => {
    const range = { from: JUNE, to: JUNE + 20 * DAY };
    const { container, rerender } = render(
      <ActivityChart buckets={[]} interval="day" range={range} loading />,
    );
    const rows = (root: HTMLElement) =>
      [...root.querySelector('figure')!.children].map((child) => child.className);
    const loadingRows = rows(container);
    expect(container.querySelector('figure')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByRole('slider')).toBeNull();
    rerender(<ActivityChart buckets={days(20)} interval="day" range={range} />);
    expect(rows(container)).toEqual(loadingRows);
    expect(screen.getByRole('slider')).toBeInTheDocument();
  });

  it('says when the span has no events', () => {
    render(<ActivityChart buckets={[]} interval="day" range={{ from: JUNE, to: JUNE + DAY }} />);
    expect(screen.getByText('No events in this span.')).toBeInTheDocument();
  });
});
