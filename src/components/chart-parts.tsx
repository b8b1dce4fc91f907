import {
  useCallback,
  useId,
  useEffect,
  useState,
  type Dispatch,
  type KeyboardEvent,
  type ReactNode,
  type SetStateAction,
} from 'react';
import type { ChartCurrency } from '../lib/chart-currency';
import { LABEL_PX, type TickStep } from '../lib/chart-ticks';
import { formatAxisTick } from '../lib/time';
import type { TimeSpan } from '../lib/time-span';
import styles from './chart.module.css';
import states from './states.module.css';

/**
 * What the activity and sales charts share: their frame (caption, plot, slider, readout,
 * legend), the value axis up the side, the dates along the bottom, the grid behind the
 * plot, the choice of currency and the keys of the slider that reaches every bar or dot.
 */

/** A label closer than this to an end of the axis is set inside it rather than centred. */
const EDGE_PX = 28;

/** Labels up the side of a plot, each at its value's height (the top tick at the top). */
export function ValueAxis({
  ticks,
  format,
  unit,
  className,
}: {
  ticks: readonly number[];
  format: (value: number) => string;
  /** What the values count or are priced in ("events", "ETH"), over the axis. */
  unit?: string;
  className?: string;
}) {
  const top = ticks[ticks.length - 1] || 1;
  return (
    <div className={`${styles.values} ${className ?? ''}`} aria-hidden="true">
      {unit && ticks.length > 0 && <b className={styles.unit}>{unit}</b>}
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

/** A plot's size in its own units, its value ticks and the x of each time tick. */
export interface GridLines {
  width: number;
  height: number;
  values: readonly number[];
  xs: readonly number[];
}

/** Faint lines at the value ticks across and the time ticks up, in the plot's units. */
export function Grid({ width, height, values, xs }: GridLines) {
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

/**
 * A plot stretched to its box, its grid behind what it draws. With a label it is an image
 * that the label describes; without one, screen readers pass over it.
 */
export function Plot({
  className,
  label,
  grid,
  children,
}: {
  className: string | undefined;
  label?: string;
  grid: GridLines;
  children: ReactNode;
}) {
  return (
    <svg
      className={className}
      viewBox={`0 0 ${grid.width} ${grid.height}`}
      preserveAspectRatio="none"
      {...(label === undefined ? { 'aria-hidden': true } : { role: 'img', 'aria-label': label })}
    >
      <Grid {...grid} />
      {children}
    </svg>
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
  const [scrollRef, more, check] = useMoreToScroll(currencies.length);
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
    <div
      ref={scrollRef}
      className={styles.choice}
      role="group"
      aria-label={title}
      data-more={more || undefined}
      onScroll={check}
    >
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
 * Whether a row that scrolls sideways has more past its right edge: the row then fades
 * there, the sign that it scrolls. Checked as it scrolls, as its size changes and as its
 * `count` of items does.
 */
function useMoreToScroll(count: number) {
  const [element, setElement] = useState<HTMLElement | null>(null);
  const [more, setMore] = useState(false);
  const check = useCallback(() => {
    if (element) setMore(element.scrollLeft + element.clientWidth < element.scrollWidth - 1);
  }, [element]);
  useEffect(() => {
    // Its items come and go without changing its own size: checked once they are drawn.
    const frame = requestAnimationFrame(check);
    if (!element || typeof ResizeObserver === 'undefined') return () => cancelAnimationFrame(frame);
    const observer = new ResizeObserver(check);
    observer.observe(element);
    return () => {
      cancelAnimationFrame(frame);
      observer.disconnect();
    };
  }, [element, check, count]);
  return [setElement, more, check] as const;
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

/**
 * The state of a slider over a plot's `items` (bars or dots, oldest first): the one shown
 * (pointed at, tapped or reached by key; null for none; one no longer there, as there are
 * fewer now, is none) with its setter, and the words for any one of them.
 */
export function usePlotSlider<T>(items: readonly T[], describe: (item: T) => string) {
  const [active, setActive] = useState<number | null>(null);
  const shown = active !== null && active < items.length ? active : null;
  return { items, describe, shown, onShow: setActive };
}

/** The slider over a plot: what it reaches, and what a pointer or a key does there. */
export interface PlotSlider<T> {
  /** Its name: "Bars, one per day". */
  label: string;
  /** The bars or dots it reaches, oldest first, and one's numbers in words (the readout). */
  items: readonly T[];
  describe: (item: T) => string;
  /** The index of the one shown, or null, and its setter (`usePlotSlider`). */
  shown: number | null;
  onShow: Dispatch<SetStateAction<number | null>>;
  /** The index of the one under a pointer, or null. */
  pointAt: (event: {
    currentTarget: HTMLElement;
    clientX: number;
    clientY: number;
  }) => number | null;
  /** Opens what one shows (a click, a tap or Enter on it). */
  onChoose?: (item: T) => void;
}

/**
 * A chart's frame: its caption (the name, what it spans or draws, and a note cut to a
 * line, whole in its title), the value axes beside the plot, the plot's SVGs in the area
 * whose width is measured, over them the slider that reaches every bar or dot (or the
 * loading placeholder, or `empty`), the dates below, the choice of currency, the readout
 * of the one shown (a hint until then; the keys are told to screen readers) and the
 * legend. While `loading` the frame keeps its size, without bars or dots.
 */
export function ChartFrame<T>({
  loading,
  title,
  subtitle,
  note,
  axes,
  areaRef,
  children,
  slider,
  empty,
  time,
  choice,
  hint,
  keysHint,
  legend,
}: {
  loading: boolean;
  title: string;
  subtitle: string;
  note: string | null;
  axes: ReactNode;
  areaRef: (element: HTMLElement | null) => void;
  children: ReactNode;
  slider: PlotSlider<T>;
  empty: string;
  time: { range: TimeSpan; step: TickStep; ticks: readonly number[]; width: number };
  choice: ReactNode;
  hint: string;
  keysHint: string;
  legend: ReactNode;
}) {
  const keysId = useId();
  const { label, items, describe, shown, onShow, pointAt } = slider;
  const count = items.length;
  const say = (index: number) => describe(items[index]!);
  const choose = (index: number | null) => {
    const item = index === null ? undefined : items[index];
    if (item !== undefined) slider.onChoose?.(item);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const move = sliderKey(event.key, shown, count);
    if (move === null) return;
    event.preventDefault();
    if (move === 'choose') choose(shown);
    else onShow(move);
  };
  return (
    <figure className={styles.frame} aria-busy={loading || undefined}>
      <figcaption className={styles.head}>
        <strong>{title}</strong>
        <span>{subtitle}</span>
        {note && (
          <span className={styles.note} title={note}>
            {note}
          </span>
        )}
      </figcaption>
      <div className={styles.plot}>
        {axes}
        <div className={styles.area} ref={areaRef}>
          {children}
          {loading ? (
            <div className={`${styles.message} ${styles.loading} ${states.pulse}`} />
          ) : count === 0 ? (
            <p className={styles.message}>{empty}</p>
          ) : (
            <div
              className={styles.slider}
              role="slider"
              tabIndex={0}
              aria-label={label}
              aria-valuemin={1}
              aria-valuemax={count}
              aria-valuenow={(shown ?? count - 1) + 1}
              aria-valuetext={say(shown ?? count - 1)}
              aria-describedby={keysId}
              onKeyDown={onKeyDown}
              onFocus={() => onShow((old) => old ?? count - 1)}
              onBlur={() => onShow(null)}
              onPointerMove={(event) => onShow(pointAt(event))}
              onPointerDown={(event) => onShow(pointAt(event))}
              onPointerLeave={(event) => {
                // A finger leaves as it lifts, before the tap's focus and click: what it
                // tapped stays shown.
                if (event.pointerType !== 'touch' && document.activeElement !== event.currentTarget)
                  onShow(null);
              }}
              onClick={(event) => {
                const index = pointAt(event);
                if (index !== null) onShow(index);
                choose(index);
              }}
            />
          )}
        </div>
      </div>
      <TimeAxis {...time} />
      {choice}
      <p className={styles.readout}>
        {shown === null ? <span className={styles.muted}>{hint}</span> : say(shown)}
      </p>
      <p id={keysId} className="visually-hidden">
        {keysHint}
      </p>
      <ul className={styles.legend}>{legend}</ul>
    </figure>
  );
}
