import type { ReactNode } from 'react';
import { formatCount } from '../lib/format';

/** A figure of a page's header: its label and its value, formatted. */
export type Figure = readonly [label: string, value: ReactNode];

/** The labels with "…" for values: held while the answer loads, so nothing moves when it comes. */
export const placeholderFigures = (labels: readonly string[]): Figure[] =>
  labels.map((label) => [label, '…']);

/** Counts as figures, in the record's order ("Sales" → "1,234"). */
export const countFigures = (counts: Readonly<Record<string, number>>): Figure[] =>
  Object.entries(counts).map(([label, count]) => [label, formatCount(count)]);

/** Figures as a description list: each label over its value. */
export function FigureList({
  figures,
  busy,
  className,
  label,
  itemClass,
}: {
  figures: readonly Figure[];
  /** The values are still loading (the placeholders are shown). */
  busy: boolean;
  className: string | undefined;
  label?: string;
  /** A class for some figures' boxes (e.g. a wide one). */
  itemClass?: (label: string) => string | undefined;
}) {
  return (
    <dl className={className} aria-busy={busy} aria-label={label}>
      {figures.map(([name, value]) => (
        <div key={name} className={itemClass?.(name)}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
