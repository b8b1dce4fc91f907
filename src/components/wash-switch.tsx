import { useId } from 'react';
import { Hint } from './hint';
import { plural } from '../lib/format';
import field from './field.module.css';
import styles from './wash-switch.module.css';

const RULES =
  'A sale is flagged when the buyer is the seller, when the token goes back between the same ' +
  'two wallets within 30 days, or when one wallet trades the token 3 times or more within ' +
  '30 days. Flags say why a sale looks washed, not that it was.';

/**
 * Whether the page leaves the sales flagged as wash trades out of what it shows (every
 * figure, chart, row and export of a collection; its market), as `wash=exclude` in the
 * URL, and how many sales the whole history flags.
 */
export function WashSwitch({
  exclude,
  flagged,
  onChange,
}: {
  exclude: boolean;
  /** Sales flagged over the whole history; undefined while the figures load. */
  flagged: number | undefined;
  onChange: (exclude: boolean) => void;
}) {
  const id = useId();
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
      <span id={id} className="muted small">
        <Hint note={RULES}>
          {flagged === undefined
            ? 'Flagged sales: …'
            : `${plural(flagged, 'sale', 'sales')} flagged as possible wash trades`}
        </Hint>
      </span>
    </div>
  );
}
