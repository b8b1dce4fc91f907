import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SalesChart } from '../../src/components/sales-chart';
import styles from '../../src/components/sales-chart.module.css';
import chart from '../../src/components/chart.module.css';
import type { EventRow } from '../../src/lib/answers';
import { CURRENCIES } from '../../src/lib/price';

const DAY = 86_400;
const JUNE = Date.UTC(2025, 5, 1) / 1000;
const ETH = CURRENCIES[0]!.address;
const STRK = CURRENCIES[1]!.address;
const WEI = 10n ** 18n;

function sale(id: number, day: number, units: bigint, currencyAddress?: string): EventRow {
  return {
    id: String(id),
    key: String(id),
    eventId: String(id),
    kind: 'sale',
    label: 'sale',
    contractAddress: '0x1',
    from: '0x2',
    to: '0x3',
    tokenId: String(100 + id),
    tokenIdHex: '0x1',
    timestamp: JUNE + day * DAY,
    transactionHash: '0x4',
    price: units.toString(),
    currencyAddress,
    marketplaceName: 'Element',
    records: 'transfer+sale',
  };
}

/** `count` sales in ETH a day apart, at 1, 2, 3, 1, 2, 3… ETH; a few in STRK. */
const ethSales = (count: number) =>
  Array.from({ length: count }, (_, k) => sale(k, k, BigInt((k % 3) + 1) * WEI, ETH));
const strkSales = [sale(900, 1, 250n * WEI, STRK), sale(901, 2, 300n * WEI, STRK)];

const dots = (container: HTMLElement) => [
  ...container.querySelectorAll(`svg.${styles.prices} circle.${styles.dot}`),
];
const priceLabels = (container: HTMLElement) =>
  [...container.querySelectorAll(`.${styles.axis} span`)].map((span) => span.textContent);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('SalesChart', () => {
  it('draws each sale of one currency as a dot on that currency’s own axis', async () => {
    const { container } = render(
      <SalesChart
        sales={[...strkSales, ...ethSales(30)]}
        caption="the latest 32 sales of the view"
      />,
    );
    expect(screen.getByText('32 sales drawn: the latest 32 sales of the view')).toBeInTheDocument();
    const choice = screen.getByRole('group', { name: 'Prices in' });
    // The currency with the most sales first.
    expect(within(choice).getByRole('button', { name: 'ETH' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    expect(dots(container)).toHaveLength(30);
    expect(priceLabels(container).at(-1)).toBe('3');
    await userEvent.click(within(choice).getByRole('button', { name: 'STRK' }));
    expect(dots(container)).toHaveLength(2);
    expect(priceLabels(container).at(-1)).toBe('300');
    expect(screen.getByRole('img').getAttribute('aria-label')).toMatch(/^2 sales in STRK from/);
  });

  it('names the price axis’s currency, and draws over the span it is given', () => {
    const { container } = render(
      <SalesChart sales={ethSales(3)} range={{ from: JUNE, to: JUNE + 100 * DAY }} />,
    );
    expect(container.querySelector(`.${chart.unit}`)).toHaveTextContent('ETH');
    // Three days of a hundred: the dots in the plot's first few hundredths.
    const xs = dots(container).map((dot) => Number(dot.getAttribute('cx')));
    expect(Math.max(...xs)).toBeLessThan(800 * 0.04);
  });

  it('draws the rolling median and says over how many sales', () => {
    const { container } = render(<SalesChart sales={ethSales(60)} />);
    expect(screen.getByText('Median of the last 7 sales')).toBeInTheDocument();
    const path = container.querySelector(`svg.${styles.prices} path.${styles.median}`)!;
    // A point per sale from the seventh on.
    expect(path.getAttribute('d')!.split(/[ML]/).filter(Boolean)).toHaveLength(54);
  });

  it('reaches every sale by key and opens its token with Enter', async () => {
    const onOpen = vi.fn();
    const sales = ethSales(12);
    render(<SalesChart sales={sales} onOpen={onOpen} />);
    const slider = screen.getByRole('slider', { name: 'Sales in ETH, oldest to newest' });
    await userEvent.tab();
    expect(slider).toHaveFocus();
    expect(slider).toHaveAttribute(
      'aria-valuetext',
      '12 Jun 2025, 00:00 UTC: token 111 sold for 3 ETH on Element',
    );
    await userEvent.keyboard('{Home}{ArrowRight}');
    expect(
      screen.getByText('2 Jun 2025, 00:00 UTC: token 101 sold for 2 ETH on Element'),
    ).toBeVisible();
    await userEvent.keyboard('{Enter}');
    expect(onOpen).toHaveBeenCalledWith(sales[1]);
  });

  it('opens the token of the dot clicked', () => {
    const onOpen = vi.fn();
    const sales = ethSales(12);
    const { container } = render(<SalesChart sales={sales} onOpen={onOpen} />);
    const slider = screen.getByRole('slider');
    // jsdom has no layout: the box is the plot's own units.
    vi.spyOn(slider, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 800, 160));
    const first = dots(container)[0]!;
    fireEvent.click(slider, {
      clientX: Number(first.getAttribute('cx')) + 3,
      clientY: Number(first.getAttribute('cy')) - 3,
    });
    expect(onOpen).toHaveBeenCalledWith(sales[0]);
    // Far from every dot: nothing opens.
    onOpen.mockClear();
    fireEvent.click(slider, { clientX: 400, clientY: 1 });
    expect(onOpen).not.toHaveBeenCalled();
  });

  it('a tap shows the tapped sale, though the finger leaves before the focus', () => {
    const { container } = render(<SalesChart sales={ethSales(12)} onOpen={vi.fn()} />);
    const slider = screen.getByRole('slider');
    vi.spyOn(slider, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 800, 160));
    const first = dots(container)[0]!;
    const at = {
      clientX: Number(first.getAttribute('cx')),
      clientY: Number(first.getAttribute('cy')),
    };
    fireEvent.pointerDown(slider, { ...at, pointerType: 'touch' });
    fireEvent.pointerLeave(slider, { ...at, pointerType: 'touch' });
    act(() => slider.focus());
    fireEvent.click(slider, at);
    expect(slider).toHaveAttribute('aria-valuenow', '1');
  });

  it('draws a price far above the rest at the top edge and says so', () => {
    const { container } = render(
      <SalesChart sales={[...ethSales(40), sale(99, 20, 1000n * WEI, ETH)]} />,
    );
    expect(container.querySelectorAll(`circle.${styles.cut}`).length).toBeGreaterThanOrEqual(1);
    expect(screen.getByText('1 sale above the axis, drawn at its top')).toBeInTheDocument();
    expect(Number(priceLabels(container).at(-1))).toBeLessThan(10);
  });

  it('says how many sales have a price it cannot read', () => {
    render(<SalesChart sales={[...ethSales(3), { ...sale(50, 1, 0n, ETH), price: 'n/a' }]} />);
    expect(screen.getByText('3 sales drawn')).toBeInTheDocument();
    expect(
      screen.getByText(/1 sale with a price that cannot be read is not drawn/),
    ).toBeInTheDocument();
    expect(screen.getByText('Too few sales for a median line')).toBeInTheDocument();
  });

  it('keeps its rows while loading, without dots or a slider', () => {
    const { container, rerender } = render(<SalesChart sales={[]} loading />);
    const rows = () =>
      [...container.querySelector('figure')!.children].map((child) => child.className);
    const loadingRows = rows();
    expect(container.querySelector(`.${chart.loading}`)).not.toBeNull();
    expect(screen.queryByRole('slider')).toBeNull();
    rerender(<SalesChart sales={ethSales(12)} />);
    expect(rows()).toEqual(loadingRows);
    expect(screen.getByRole('slider')).toBeInTheDocument();
  });
});
