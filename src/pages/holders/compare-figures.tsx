import type { ReactNode } from 'react';
import { Amount } from '../../components/amount';
import { ColumnHeads } from '../../components/column-heads';
import { shortenHex } from '../../lib/address';
import type { MomentFigures } from '../../lib/answers';
import { formatCount, formatShare } from '../../lib/format';
import stacked from '../../components/stacked-table.module.css';
import styles from './holders-page.module.css';

interface Line {
  label: string;
  from: ReactNode;
  to: ReactNode;
  /** The difference, in words with its sign; empty where a difference says nothing. */
  change: string;
}

const signed = (difference: number, format: (value: number) => string) =>
  difference === 0 ? '±0' : `${difference > 0 ? '+' : '−'}${format(Math.abs(difference))}`;

const countLine = (label: string, from: number, to: number): Line => ({
  label,
  from: formatCount(from),
  to: formatCount(to),
  change: signed(to - from, formatCount),
});

/**
 * The collection's figures at both moments, a row per figure with its change: holders,
 * tokens held, the top ten's share, known burns, events of each kind, and sales and
 * volume in each currency (never summed across currencies).
 */
export function CompareFigures({
  figures,
  fromLabel,
  toLabel,
}: {
  figures: { from: MomentFigures; to: MomentFigures };
  fromLabel: string;
  toLabel: string;
}) {
  const { from, to } = figures;
  const lines: Line[] = [
    countLine('Holders', from.totalHolders, to.totalHolders),
    countLine('Tokens held', from.tokensHeld, to.tokensHeld),
    {
      label: 'Top 10 hold',
      from: formatShare(from.top10Share),
      to: formatShare(to.top10Share),
      change: `${signed(Math.round((to.top10Share - from.top10Share) * 1000) / 10, (v) => v.toFixed(1))} points`,
    },
    countLine('Known burns', from.knownBurned, to.knownBurned),
    countLine('Events', from.activity.events, to.activity.events),
    countLine('Mints', from.activity.counts.mint, to.activity.counts.mint),
    countLine('Transfers', from.activity.counts.transfer, to.activity.counts.transfer),
    countLine('Sales', from.activity.sales, to.activity.sales),
  ];
  const currencies = new Map(
    [...to.activity.volume, ...from.activity.volume].map((v) => [v.currency.address, v.currency]),
  );
  for (const [address, currency] of currencies) {
    const at = (f: MomentFigures) => f.activity.volume.find((v) => v.currency.address === address);
    // Unknown currencies are named by their address: each is a figure of its own.
    const name = currency.symbol ?? shortenHex(address);
    const [a, b] = [at(from), at(to)];
    lines.push(countLine(`Sales in ${name}`, a?.sales ?? 0, b?.sales ?? 0), {
      label: `Volume in ${name}`,
      from: <Amount units={a?.volume ?? '0'} currency={address} narrow />,
      to: <Amount units={b?.volume ?? '0'} currency={address} narrow />,
      change: '',
    });
  }
  return (
    <div className={styles.compareScroll}>
      <table className={`${styles.compareFigures} ${stacked.stacked}`}>
        <caption>The collection at both moments</caption>
        <ColumnHeads
          columns={[
            ['Figure'],
            [fromLabel, styles.number],
            [toLabel, styles.number],
            ['Change', styles.number],
          ]}
        />
        <tbody>
          {lines.map((line) => (
            <tr key={line.label}>
              <th scope="row">{line.label}</th>
              <td className={styles.number} data-label={fromLabel}>
                {line.from}
              </td>
              <td className={styles.number} data-label={toLabel}>
                {line.to}
              </td>
              <td className={styles.number} data-label="Change">
                {line.change}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
