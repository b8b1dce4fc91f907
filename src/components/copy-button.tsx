import { useEffect, useState } from 'react';

interface CopyButtonProps {
  value: string;
  label: string;
}

/** Copies `value`; says "Copied" for a moment, to sighted and screen-reader users alike. */
export function CopyButton({ value, label }: CopyButtonProps) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 1500);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="icon-button"
      onClick={() => void copy()}
      aria-label={label}
      title={label}
    >
      <span aria-hidden="true">{state === 'copied' ? '✓' : state === 'failed' ? '!' : '⧉'}</span>
      <span className="visually-hidden" role="status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : ''}
      </span>
    </button>
  );
}
