import { useEffect, useId, useState, type FormEvent } from 'react';
import type { RankingWindow } from '../../lib/answers';
import { CURRENCIES, type Currency } from '../../lib/price';
import { RANKING_WINDOWS, SEARCH_MAX, type RankingView } from '../../lib/ranking-view';
import field from '../../components/field.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './ranking-toolbar.module.css';

const WINDOW_NAMES: Record<RankingWindow, string> = {
  '24h': '24 h',
  '7d': '7 d',
  '30d': '30 d',
  all: 'All time',
};

/** How long typing pauses before the search goes to the URL (and the server). */
const SEARCH_PAUSE_MS = 300;

interface RankingToolbarProps {
  view: RankingView;
  onChange: (changes: Partial<RankingView>) => void;
}

/** The window switch, the currency of volumes and the search over the whole ranking. */
export function RankingToolbar({ view, onChange }: RankingToolbarProps) {
  return (
    <div className={toolbar.toolbar}>
      <Choice
        legend="Activity over"
        options={RANKING_WINDOWS.map((window) => ({ value: window, label: WINDOW_NAMES[window] }))}
        value={view.window}
        onChange={(window) => onChange({ window })}
      />
      <Choice
        legend="Volume in"
        options={CURRENCIES.map((currency) => ({ value: currency, label: currency.symbol }))}
        value={view.currency}
        onChange={(currency: Currency) => onChange({ currency })}
      />
      <SearchBox text={view.q} onSearch={(q) => onChange({ q })} />
    </div>
  );
}

interface ChoiceProps<T> {
  legend: string;
  options: { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}

/** A few exclusive options as one row of buttons, the chosen one pressed. */
function Choice<T>({ legend, options, value, onChange }: ChoiceProps<T>) {
  return (
    <fieldset className={styles.choice}>
      <legend>{legend}</legend>
      <div className={styles.options}>
        {options.map((option) => (
          <button
            key={option.label}
            type="button"
            className={styles.option}
            aria-pressed={option.value === value}
            onClick={() => onChange(option.value)}
          >
            {option.label}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * The search box: what is typed goes to the URL after a pause (or at once on Enter), and
 * the server filters its whole ranking with it. A new URL (back, a link) sets the box.
 */
function SearchBox({ text, onSearch }: { text: string; onSearch: (text: string) => void }) {
  const id = useId();
  const [draft, setDraft] = useState(text);
  const [shown, setShown] = useState(text);
  if (text !== shown) {
    setShown(text);
    if (draft.trim() !== text) setDraft(text);
  }
  const wanted = draft.trim().slice(0, SEARCH_MAX);
  useEffect(() => {
    if (wanted === text) return;
    const timer = setTimeout(() => onSearch(wanted), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [wanted, text, onSearch]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (wanted !== text) onSearch(wanted);
  };
  return (
    <form className={`${field.field} ${styles.search}`} onSubmit={submit}>
      <label htmlFor={id}>Search collections</label>
      <input
        id={id}
        type="search"
        value={draft}
        maxLength={SEARCH_MAX}
        placeholder="Name, symbol or address"
        spellCheck={false}
        autoComplete="off"
        onChange={(event) => setDraft(event.target.value)}
      />
    </form>
  );
}
