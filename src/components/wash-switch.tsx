import { useId } from 'react';
import { Hint } from './hint';
import { plural } from '../lib/format';
import { formatFlaggedShares, type FlaggedShare } from '../lib/wash-share';
import field from './field.module.css';
import styles from './wash-switch.module.css';

const RULES =
  'A sale is flagged when the buyer is the seller, when the token goes back between the same ' +
  'two wallets within 30 days, or when one wallet trades the token 3 times or more within ' +
  '30 days. Flags say why a sale looks washed, not that it was.';

/**
 * Whether the page leaves the sales flagged as wash trades out of what it shows (every
 * figure, chart, row and export of a collection; its market), as `wash=exclude` in the
 * URL; how many sales the whole history flags and their share of each currency's volume;
 * and, where the page lists events, a button that lists the flagged sales alone
 * (`wash=only`) or every sale again.
 */
export function WashSwitch({
  exclude,
  flagged,
  shares = [],
  onChange,
  only,
  onOnlyChange,
}: {
  exclude: boolean;
  /** Sales flagged over the whole history; undefined while the figures load. */
  flagged: number | undefined;
  /** The flagged share of each currency's volume. */
  shares?: readonly FlaggedShare[];
  onChange: (exclude: boolean) => void;
  /** Whether the flagged sales alone are listed. */
  only?: boolean;
  onOnlyChange?: (only: boolean) => void;
}) {
  const id = useId();
  const shareText = formatFlaggedShares(shares);
  return (
    <div className={`${field.field} ${styles.wash}`}>
      <label className={styles.switch}>
        <input
          type="checkbox"
          role="switch"
          checked={exclude}
          aria-describedby={id}
          onChange={(event) => onChange(event.target.checked)}
        />
        Leave flagged sales out
      </label>
      <span className={`${styles.line} muted small`}>
        <span id={id}>
          <Hint note={RULES}>
            {flagged === undefined
              ? 'Flagged sales: …'
              : `${plural(flagged, 'sale', 'sales')} flagged as possible wash trades${shareText ? ` (${shareText})` : ''}`}
          </Hint>
        </span>
        {onOnlyChange && (only || (flagged ?? 0) > 0) && (
          <button type="button" className={styles.only} onClick={() => onOnlyChange(!only)}>
            {only ? 'Show every event' : 'List flagged sales'}
          </button>
        )}
      </span>
    </div>
  );
}
