import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { collectionQueryOptions } from '../../api/collection';
import { CopyButton } from '../../components/copy-button';
import { shortenHex } from '../../lib/address';
import { embedFrame, type EmbeddedView, type EmbedTheme } from '../../lib/embed';
import field from '../../components/field.module.css';
import styles from './embed-code.module.css';

const VIEWS: [EmbeddedView, string][] = [
  ['activity', 'Activity chart'],
  ['latest', 'Latest events'],
];

/**
 * The code that shows this collection on another site: its activity chart or its latest
 * events in a frame, light, dark or as the reader's system has it; the same frame its
 * oEmbed answer gives (src/lib/embed.ts).
 */
export function EmbedCode({ id, address }: { id: string; address: string }) {
  const collection = useQuery(collectionQueryOptions(address));
  const [view, setView] = useState<EmbeddedView>('activity');
  const [theme, setTheme] = useState<EmbedTheme | ''>('');
  const themeId = useId();
  const codeId = useId();
  const frame = embedFrame({
    origin: window.location.origin,
    address,
    view,
    name: collection.data?.name || `Contract ${shortenHex(address)}`,
    theme: theme || null,
  });
  return (
    <section id={id} className={styles.panel} aria-label="Embed this collection">
      <div className={styles.choices}>
        <fieldset className={styles.views}>
          <legend>Show</legend>
          {VIEWS.map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name={`${codeId}-view`}
                value={value}
                checked={view === value}
                onChange={() => setView(value)}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        <div className={field.field}>
          <label htmlFor={themeId}>Theme</label>
          <select
            id={themeId}
            value={theme}
            onChange={(event) => setTheme(event.target.value as EmbedTheme | '')}
          >
            <option value="">The reader’s system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </div>
      </div>
      <label htmlFor={codeId} className={styles.codeLabel}>
        Code to paste into a page ({frame.width}×{frame.height}, any site may frame it)
      </label>
      <div className={styles.code}>
        <textarea id={codeId} readOnly rows={3} value={frame.html} spellCheck={false} />
        <CopyButton value={frame.html} label="Copy the embed code" />
      </div>
      <p className="muted small">
        <a href={frame.src} target="_blank" rel="noopener noreferrer">
          Open the embedded page
        </a>
        . Sites that read oEmbed find it from this page’s link alone.
      </p>
    </section>
  );
}
