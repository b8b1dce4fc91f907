import { useRef, useState } from 'react';
import { announce } from './announce';
import button from './button.module.css';
import styles from './copy-button.module.css';

interface CopyButtonProps {
  value: string;
  label: string;
}

const SHOWN_MS = 1500;

/**
 * Copies `value`; says "Copied" for a moment, to sighted users on the button and to
 * screen-reader users through the page's live region (see announce.ts). Tables render one
 * per row, so an idle button is one element with no effect to run: the icon is a CSS
 * background (copy-button.module.css), and the reset timer is only set by a click (its update is
 * ignored if the row has scrolled away by then).
 */
export function CopyButton({ value, label }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const show = (next: 'copied' | 'failed') => {
    setState(next);
    announce(next === 'copied' ? 'Copied' : 'Copy failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), SHOWN_MS);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      show('copied');
    } catch {
      show('failed');
    }
  };
  return (
    <button
      type="button"
      className={state === 'idle' ? `${button.iconButton} ${styles.icon}` : button.iconButton}
      onClick={() => void copy()}
      aria-label={label}
      title={label}
    >
      {state !== 'idle' && <span aria-hidden="true">{state === 'copied' ? '✓' : '!'}</span>}
    </button>
  );
}
