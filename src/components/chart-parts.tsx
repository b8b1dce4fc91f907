import type { ChartCurrency } from '../lib/chart-currency';
import { LABEL_PX, type TickStep } from '../lib/chart-ticks';
import { formatAxisTick } from '../lib/time';
import type { TimeSpan } from '../lib/time-span';
import styles from './chart.module.css';

/**
 * What the activity and sales charts share: the value axis up the side, the dates along
 * the bottom, the grid behind the plot, the choice of currency and the keys of the
 * slider that reaches every bar or dot.
 */

/** A label closer than this to an end of the axis is set inside it rather than centred. */
const EDGE_PX = 28;

/** Labels up the side of a plot, each at its value's height (the top tick at the top). */
export function ValueAxis({
  ticks,
  format,
  className,
}: {
  ticks: readonly number[];
  format: (value: number) => string;
  className?: string;
}) {
  const top = ticks[ticks.length - 1] || 1;
  return (
    <div className={`${styles.values} ${className ?? ''}`} aria-hidden="true">
      {ticks.map((value) => (
        <span key={value} style={{ bottom: `${(value / top) * 100}%` }}>
          {format(value)}
        </span>
      ))}
    </div>
  );
}

/** Dates under a plot `width` pixels wide, at the step's calendar boundaries. */
export function TimeAxis({
  range,
  step,
  ticks,
  width,
}: {
  range: TimeSpan;
  step: TickStep;
  ticks: readonly number[];
  width: number;
}) {
  const span = Math.max(range.to - range.from, 1);
  const room = LABEL_PX[step.unit];
  const placed = ticks.map((tick) => {
    const share = (tick - range.from) / span;
    const px = share * width;
    const edge = px < EDGE_PX ? 'start' : px > width - EDGE_PX ? 'end' : undefined;
    return { tick, share, px, edge };
  });
  // A label set inside an end reaches towards its neighbour: left out when it would meet it.
  const shown = placed.filter(({ px, edge }, index) => {
    if (edge === 'start') return (placed[index + 1]?.px ?? Infinity) - px >= room * 1.2;
    if (edge === 'end') return px - (placed[index - 1]?.px ?? -Infinity) >= room * 1.2;
    return true;
  });
  return (
    <div className={styles.times} aria-hidden="true">
      {shown.map(({ tick, share, edge }) => (
        <span key={tick} style={{ left: `${share * 100}%` }} data-edge={edge}>
          {formatAxisTick(tick, step.unit)}
        </span>
      ))}
    </div>
  );
}

/** Faint lines at the value ticks across and the time ticks up, in the plot's units. */
export function Grid({
  width,
  height,
  values,
  xs,
}: {
  width: number;
  height: number;
  values: readonly number[];
  xs: readonly number[];
}) {
  const top = values[values.length - 1] || 1;
  return (
    <g className={styles.grid}>
      {values.slice(1).map((value) => {
        const y = height - (value / top) * height;
        return <line key={`y${value}`} x1={0} x2={width} y1={y} y2={y} />;
      })}
      {xs.map((x) => (
        <line key={`x${x}`} x1={x} x2={x} y1={0} y2={height} />
      ))}
    </g>
  );
}

/** Which currency a panel shows: a button each (pressed: shown), or its name alone. */
export function CurrencyChoice({
  title,
  currencies,
  chosen,
  onChoose,
}: {
  title: string;
  currencies: readonly { currency: ChartCurrency; sales: number }[];
  chosen: string | null;
  onChoose: (key: string) => void;
}) {
  if (currencies.length <= 1) {
    const only = currencies[0]?.currency;
    return (
      <div className={styles.choice}>
        <span className="muted">{title}</span>
        {only && <strong>{only.label}</strong>}
      </div>
    );
  }
  return (
    <div className={styles.choice} role="group" aria-label={title}>
      <span className="muted">{title}</span>
      {currencies.map(({ currency, sales }) => (
        <button
          key={currency.key}
          type="button"
          className={styles.currency}
          aria-pressed={currency.key === chosen}
          title={`${sales} ${sales === 1 ? 'sale' : 'sales'}`}
          onClick={() => onChoose(currency.key)}
        >
          {currency.label}
        </button>
      ))}
    </div>
  );
}

/**
 * Where a key moves a slider over `count` items from `current` (null: none yet, so the
 * newest): an index, `choose` for Enter and Space, or null for any other key.
 */
export function sliderKey(key: string, current: number | null, count: number) {
  const last = count - 1;
  const from = current ?? last;
  const moves: Record<string, number> = {
    ArrowLeft: from - 1,
    ArrowDown: from - 1,
    ArrowRight: from + 1,
    ArrowUp: from + 1,
    PageDown: from - 10,
    PageUp: from + 10,
    Home: 0,
    End: last,
  };
  if (key in moves) return Math.min(last, Math.max(0, moves[key]!));
  if ((key === 'Enter' || key === ' ') && current !== null) return 'choose' as const;
  return null;
}
