import { formatCount, formatShare } from '../lib/format';
import { ColumnHeads } from './column-heads';
import styles from './share-table.module.css';

/** One part of a whole: its name, its count and its share of the whole (0–1). */
export interface SharePart {
  label: string;
  count: number;
  share: number;
}

/**
 * How a whole splits into parts, as a table: a row per part with its count and a bar of
 * its share (the share in figures beside it, so the bar is never the only way to read it).
 */
export function ShareTable({
  caption,
  columns: [part, count, share],
  parts,
}: {
  caption: string;
  /** The headings of the part, its count and its share. */
  columns: readonly [string, string, string];
  parts: readonly SharePart[];
}) {
  return (
    <table className={styles.table}>
      <caption>{caption}</caption>
      <ColumnHeads columns={[[part], [count, styles.number], [share, styles.shareHead]]} />
      <tbody>
        {parts.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td className={styles.number}>{formatCount(row.count)}</td>
            <td>
              <span className={styles.bar} aria-hidden="true">
                <span style={{ width: `${row.share * 100}%` }} />
              </span>
              <span className={styles.shareText}>{formatShare(row.share)}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
