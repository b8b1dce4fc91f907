import { Hint } from './hint';
import styles from './wash-flag.module.css';

/**
 * A sale that looks like a wash trade, marked on its row with the reasons the index gave
 * (one per rule that fired), so a reader can weigh the price rather than take it.
 */
export function WashFlag({ reasons }: { reasons: readonly string[] }) {
  return (
    <Hint note={`Possible wash trade: ${reasons.join(' ')}`}>
      <span className={styles.flag}>wash?</span>
    </Hint>
  );
}
