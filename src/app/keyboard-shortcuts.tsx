import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { isTyping } from '../components/is-typing';
import button from '../components/button.module.css';
import styles from './keyboard-shortcuts.module.css';

const KEYS: Array<[string, string]> = [
  ['/', 'Focus the lookup box'],
  ['Esc', 'Clear the lookup box, or close this list or the settings'],
  ['j / k', 'Move to the next / previous row'],
  ['Enter', 'Open the focused row'],
  ['?', 'Show or hide this list'],
];

const FOCUSABLE = 'a[href], button:not([disabled]), input, select, textarea, [tabindex="0"]';

/**
 * `/` focuses the lookup, `?` lists the keys in a modal dialog: the page behind it is
 * inert, Tab stays inside it, and Esc, Close or a click outside gives the focus back to
 * where it was. Row keys live in the data table.
 */
export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      if (event.key === '/' && !open) {
        event.preventDefault();
        document.getElementById('lookup-input')?.focus();
      } else if (event.key === '?') {
        event.preventDefault();
        if (!open) returnTo.current = document.activeElement as HTMLElement | null;
        setOpen((old) => !old);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      // showModal makes the rest of the page inert; where it is missing (jsdom), `open` shows it.
      if (typeof dialog.showModal === 'function') dialog.showModal();
      else dialog.setAttribute('open', '');
      closeRef.current?.focus();
    } else if (!open && dialog.open) {
      if (typeof dialog.close === 'function') dialog.close();
      else dialog.removeAttribute('open');
      const target = returnTo.current;
      returnTo.current = null;
      if (target?.isConnected && target !== document.body) target.focus();
    }
  }, [open]);

  /** Esc closes; Tab and Shift+Tab go round the dialog's controls, never out of it. */
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = controls[0];
    const last = controls[controls.length - 1];
    if (!first || !last) return;
    const active = document.activeElement;
    if (event.shiftKey && (active === first || !event.currentTarget.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !event.currentTarget.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      className={styles.dialog}
      aria-labelledby="shortcuts-title"
      onKeyDown={onKeyDown}
      // The browser's own close (Esc when the key did not reach us): return the focus too.
      onCancel={(event) => {
        event.preventDefault();
        setOpen(false);
      }}
      // A click on the backdrop is a click on the dialog element itself.
      onClick={(event) => {
        if (event.target === event.currentTarget) setOpen(false);
      }}
    >
      {open && (
        <div className={styles.content}>
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
          <p className="muted small">Row keys work whenever the focus is not in a text field.</p>
          <button
            ref={closeRef}
            type="button"
            className={button.button}
            onClick={() => setOpen(false)}
          >
            Close
          </button>
        </div>
      )}
    </dialog>
  );
}
