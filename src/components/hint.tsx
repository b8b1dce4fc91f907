import { useId, type ReactNode } from 'react';
import styles from './hint.module.css';

/**
 * Text with a note that shows on hover and on keyboard focus (a `title` shows on hover
 * alone): the text is focusable, the note is its description for screen readers.
 */
export function Hint({ note, children }: { note: string; children: ReactNode }) {
  const id = useId();
  return (
    <span className={styles.hint} tabIndex={0} aria-describedby={id}>
      {children}
      <span role="tooltip" id={id} className={styles.note}>
        {note}
      </span>
    </span>
  );
}
