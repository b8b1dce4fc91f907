import { useMemo } from 'react';
import { intervalEnd } from '../lib/activity';
import type { HeldInterval } from '../lib/answers';
import { timeTicks, valueTicks } from '../lib/chart-ticks';
import { formatCount, plural } from '../lib/format';
import { formatSpan, type TimeSpan } from '../lib/time-span';
import { ChartFrame, Plot, usePlotSlider, ValueAxis } from './chart-parts';
import { useElementWidth } from './use-element-width';
import chart from './chart.module.css';
import styles from './held-chart.module.css';

const HINT = 'Point at or tap the chart for the tokens held at the end of that time.';
const KEYS_HINT = 'The arrow keys, Home and End move from one bucket to the next.';
const FALLBACK_WIDTH = 800;
const HEIGHT = 140;

export interface HeldChartProps {
  /** Tokens held at the end of each bucket, oldest first, one bucket after another. */
  held: readonly { start: number; tokens: number }[];
  interval: HeldInterval;
  /** What the index does not cover yet, in words; null when it covers the whole history. */
  partial?: string | null;
  loading?: boolean;
}

interface Step {
  span: TimeSpan;
  tokens: number;
  x: number;
  width: number;
}

/**
 * How many tokens a wallet held over time: a step line, each bucket at the count held at
 * its end, on the same frame, axes and slider as the activity chart (every bucket a key
 * away, read out below and to screen readers). Plain SVG.
 */
export function HeldChart({ held, interval, partial = null, loading = false }: HeldChartProps) {
  const [areaRef, measured] = useElementWidth();
  const width = measured || FALLBACK_WIDTH;
  const range = useMemo<TimeSpan>(() => {
    const first = held[0]?.start ?? 0;
    const last = held.at(-1)?.start ?? first;
    return { from: first, to: intervalEnd(last, interval) };
  }, [held, interval]);
  const steps = useMemo<Step[]>(() => {
    const span = Math.max(range.to - range.from, 1);
    const at = (time: number) => ((time - range.from) / span) * width;
    return loading
      ? []
      : held.map(({ start, tokens }) => {
          const end = intervalEnd(start, interval);
          return {
            span: { from: start, to: end },
            tokens,
            x: at(start),
            width: at(end) - at(start),
          };
        });
  }, [loading, held, interval, range, width]);
  const slider = usePlotSlider(steps, describe(interval));
  const ticks = valueTicks(Math.max(0, ...steps.map((step) => step.tokens)), { whole: true });
  const top = ticks[ticks.length - 1] || 1;
  const y = (tokens: number) => HEIGHT - (tokens / top) * HEIGHT;
  const time = timeTicks(range, width);
  const tickXs = time.ticks.map(
    (tick) => ((tick - range.from) / Math.max(range.to - range.from, 1)) * width,
  );
  const grid = { width, height: HEIGHT, values: ticks, xs: tickXs };
  const line = steps
    .map(
      (step, index) =>
        `${index === 0 ? 'M' : 'L'}${step.x},${y(step.tokens)}H${step.x + step.width}`,
    )
    .join('');
  const area = steps.length > 0 ? `${line}V${HEIGHT}H${steps[0]!.x}Z` : '';
  const pointAt = (event: { currentTarget: HTMLElement; clientX: number }) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width <= 0 || steps.length === 0) return null;
    const x = ((event.clientX - box.left) / box.width) * width;
    const found = steps.findIndex((step) => x < step.x + step.width);
    return found === -1 ? steps.length - 1 : found;
  };
  const shown = slider.shown === null ? undefined : steps[slider.shown];
  const most = steps.reduce((best, step) => Math.max(best, step.tokens), 0);

  return (
    <ChartFrame
      loading={loading}
      title={`Tokens held at the end of each ${interval}`}
      subtitle={steps.length > 0 ? `${formatSpan(range)} UTC` : ''}
      note={partial}
      axes={<ValueAxis ticks={loading ? [] : ticks} format={formatCount} className={styles.axis} />}
      areaRef={areaRef}
      slider={{ ...slider, label: `Tokens held, one value per ${interval}`, pointAt }}
      empty="No change of hands to show."
      time={{ range, step: time.step, ticks: time.ticks, width }}
      choice={null}
      hint={HINT}
      keysHint={KEYS_HINT}
      legend={
        <li>
          {loading ? 'Most held …' : `Most held at once: ${plural(most, 'token')}`}
          {steps.length > 0 && `; now ${plural(steps.at(-1)!.tokens, 'token')}`}
        </li>
      }
    >
      <Plot className={styles.plot} label={summary(steps, interval, range)} grid={grid}>
        {shown && (
          <rect
            className={chart.cursor}
            x={shown.x}
            y={0}
            width={Math.max(shown.width, 2)}
            height={HEIGHT}
          />
        )}
        <path className={styles.area} d={area} />
        <path className={styles.line} d={line} />
      </Plot>
    </ChartFrame>
  );
}

/** "16 Jun 2025: 4 tokens held at the end of the day". */
const describe = (interval: HeldInterval) => (step: Step) =>
  `${formatSpan(step.span)}: ${plural(step.tokens, 'token')} held at the end of the ${interval}`;

/** "Tokens held per week from … (UTC): at most 12, 3 at the end." */
function summary(steps: readonly Step[], interval: HeldInterval, range: TimeSpan): string {
  if (steps.length === 0) return `Tokens held per ${interval}: none to show.`;
  const most = steps.reduce((best, step) => (step.tokens > best.tokens ? step : best));
  return `Tokens held at the end of each ${interval} from ${formatSpan(range)} (UTC): at most ${plural(most.tokens, 'token')} (${formatSpan(most.span)}), ${formatCount(steps.at(-1)!.tokens)} at the end.`;
}
