import type { ReactNode } from 'react';
import type { EventKind } from '../lib/token-event';
import styles from './badge.module.css';

/** The tone of each kind (`--tone`, `--tone-bg`), as a class; transfer is the badge's own. */
export const kindTones: Record<EventKind, string | undefined> = {
  mint: styles.mint,
  transfer: styles.transfer,
  sale: styles.sale,
  burn: styles.burn,
  other: styles.other,
};

/** A short label in a tinted box, in the colours of an event kind when `tone` is given. */
export function Badge({ tone, children }: { tone?: EventKind; children: ReactNode }) {
  const toneClass = tone && kindTones[tone];
  return (
    <span className={toneClass ? `${styles.badge} ${toneClass}` : styles.badge}>{children}</span>
  );
}
