import type { ReactNode } from 'react';
import styles from './sort-header.module.css';

interface SortHeaderProps {
  label: ReactNode;
  direction: false | 'asc' | 'desc';
  onToggle: () => void;
}

/** A column name that sorts: a real button, so it is reachable and operable by keyboard. */
export function SortHeader({ label, direction, onToggle }: SortHeaderProps) {
  return (
    <button type="button" className={styles.sortHeader} onClick={onToggle}>
      {label}
      <span className={styles.icon} aria-hidden="true">
        {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
      </span>
    </button>
  );
}
