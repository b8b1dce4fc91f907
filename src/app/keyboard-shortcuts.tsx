import { useEffect, useRef, useState } from 'react';
import { isTyping } from '../components/is-typing';
import button from '../components/button.module.css';
import styles from './keyboard-shortcuts.module.css';

const KEYS: Array<[string, string]> = [
  ['/', 'Focus the lookup box'],
  ['Esc', 'Clear the lookup box, or close this list'],
  ['j / k', 'Move to the next / previous row'],
  ['Enter', 'Open the focused row'],
  ['?', 'Show or hide this list'],
];

/** `/` focuses the lookup, `?` lists the keys. Row keys live in the data table. */
export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && open) {
        setOpen(false);
        return;
      }
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === '/') {
        event.preventDefault();
        document.getElementById('lookup-input')?.focus();
      } else if (event.key === '?') {
        event.preventDefault();
        setOpen((old) => !old);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className={styles.overlay} onClick={() => setOpen(false)}>
      <div
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        onClick={(event) => event.stopPropagation()}
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <dl className={styles.keys}>
          {KEYS.map(([key, what]) => (
            <div key={key}>
              <dt>
                <kbd>{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
        <button
          ref={closeRef}
          type="button"
          className={button.button}
          onClick={() => setOpen(false)}
        >
          Close
        </button>
      </div>
    </div>
  );
}
