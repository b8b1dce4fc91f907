import { useMemo } from 'react';
import { buildActivity } from '../lib/activity';
import { formatCount } from '../lib/format';
import { formatAbsolute } from '../lib/time';

const KINDS = ['mint', 'transfer', 'sale', 'burn', 'other'] as const;
const WIDTH = 800;
const HEIGHT = 120;

interface ActivityChartProps {
  events: readonly { kind: string; timestamp: number }[];
  /** True while older events exist that are not loaded: the chart says it is partial. */
  partial: boolean;
}

/**
 * Events per day (or hour) by kind, drawn as stacked bars in plain SVG: a few dozen
 * lines, no charting library in the bundle. It covers exactly the loaded events.
 */
export function ActivityChart({ events, partial }: ActivityChartProps) {
  const activity = useMemo(() => buildActivity(events), [events]);
  if (!activity) return null;
  const { buckets, max, unit, from, to } = activity;
  const barWidth = WIDTH / buckets.length;
  const day = (seconds: number) => formatAbsolute(seconds).replace(/, \d\d:\d\d:\d\d UTC$/, '');
  const span = `${day(from)} – ${day(to)}`;
  const summary = `${formatCount(events.length)} events per ${unit} from ${span}; busiest ${unit}: ${formatCount(max)}.`;
  return (
    <figure className="activity-chart">
      <figcaption>
        <strong>Activity per {unit}</strong>{' '}
        <span className="muted">
          {span}
          {partial
            ? ' · loaded events only: older events are not loaded yet'
            : ' · the whole history'}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        {buckets.map((bucket, index) => {
          let y = HEIGHT;
          return (
            <g key={bucket.start}>
              <title>{`${formatAbsolute(bucket.start)}: ${bucket.total} events`}</title>
              {KINDS.map((kind) => {
                const count = bucket.counts[kind] ?? 0;
                if (count === 0) return null;
                const height = (count / max) * (HEIGHT - 4);
                y -= height;
                return (
                  <rect
                    key={kind}
                    className={`bar-${kind}`}
                    x={index * barWidth}
                    y={y}
                    width={Math.max(barWidth - 0.5, 0.5)}
                    height={height}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <ul className="chart-legend" aria-hidden="true">
        {KINDS.map((kind) => (
          <li key={kind}>
            <span className={`swatch bar-${kind}`} /> {kind}
          </li>
        ))}
      </ul>
    </figure>
  );
}
