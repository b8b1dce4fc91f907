import { useEffect, useId, useRef, useState } from 'react';
import button from '../components/button.module.css';
import field from '../components/field.module.css';
import { PAGE_SIZES, THEMES, useRootTheme, useSettings } from '../components/settings';
import { parseExplorerUrl } from '../lib/explorer';
import type { Parsed } from '../lib/result';
import styles from './settings-panel.module.css';

/**
 * Preferences kept in this browser: theme, time display and zone, page size, explorer. A
 * disclosure: Esc or a click outside closes it, and that click closes the panel only (a
 * backdrop takes it), never following the link under it.
 */
export function SettingsPanel() {
  const settings = useSettings();
  // The app's pages (which all have this panel) wear the theme chosen here.
  useRootTheme(settings.theme);
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const close = () => {
    setOpen(false);
    toggleRef.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      setOpen(false);
      toggleRef.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);
  return (
    <div className={styles.settings}>
      <button
        ref={toggleRef}
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((old) => !old)}
      >
        Settings
      </button>
      {open && <div className={styles.backdrop} aria-hidden="true" onClick={close} />}
      <div id={panelId} className={styles.body} hidden={!open}>
        <label className={field.field}>
          <span>Theme</span>
          <select
            value={settings.theme}
            onChange={(event) =>
              settings.update({
                theme: THEMES.find((theme) => theme === event.target.value) ?? 'system',
              })
            }
          >
            <option value="system">As the system</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <label className={field.field}>
          <span>Times</span>
          <select
            value={settings.timeDisplay}
            onChange={(event) =>
              settings.update({
                timeDisplay: event.target.value === 'absolute' ? 'absolute' : 'relative',
              })
            }
          >
            <option value="relative">Relative (5 h 12 min ago)</option>
            <option value="absolute">Exact date and time</option>
          </select>
        </label>
        <label className={field.field}>
          <span>Time zone</span>
          <select
            value={settings.timeZone}
            onChange={(event) =>
              settings.update({ timeZone: event.target.value === 'local' ? 'local' : 'utc' })
            }
          >
            <option value="utc">UTC</option>
            <option value="local">This device’s time zone</option>
          </select>
        </label>
        <label className={field.field}>
          <span>Events per request</span>
          <select
            value={settings.pageSize}
            onChange={(event) => settings.update({ pageSize: Number(event.target.value) })}
          >
            {PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </label>
        <UrlSetting
          label="Starknet explorer"
          value={settings.explorerUrl}
          parse={parseExplorerUrl}
          onSave={(explorerUrl) => settings.update({ explorerUrl })}
        />
      </div>
    </div>
  );
}

interface UrlSettingProps {
  label: string;
  value: string;
  parse: (input: string) => Parsed<string>;
  onSave: (value: string) => void;
}

/** A URL typed in and saved with its button (or Enter), refused with a message when wrong. */
function UrlSetting({ label, value, parse, onSave }: UrlSettingProps) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    const parsed = parse(draft);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    setDraft(parsed.value);
    onSave(parsed.value);
  };
  return (
    <form
      className={field.field}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
      noValidate
    >
      <label htmlFor={`${id}-input`}>{label}</label>
      <div className={field.inline}>
        <input
          id={`${id}-input`}
          type="text"
          value={draft}
          spellCheck={false}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className={button.secondary} aria-label={`Save the ${label}`}>
          Save
        </button>
      </div>
      {error && (
        <span id={`${id}-error`} className={field.error} role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
