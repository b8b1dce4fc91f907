import { Fragment, useState } from 'react';
import { Hint } from '../../components/hint';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { BURNS_NOT_LISTED } from '../../lib/event-list';
import { parseAddress, shortenHex } from '../../lib/address';
import { EVENT_KIND_NAMES, EVENT_KINDS, type EventKind } from '../../lib/token-event';
import type { TimeDisplay } from '../../lib/view-state';
import { kindTones } from '../../components/badge';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './event-filters.module.css';

interface EventFiltersProps {
  kinds: readonly EventKind[];
  onKindsChange: (kinds: EventKind[]) => void;
  address: string | null;
  onAddressChange: (address: string | null) => void;
  display: TimeDisplay;
  onDisplayChange: (display: TimeDisplay) => void;
  /** The loaded events hold no burn: the Burn toggle says why that proves nothing. */
  burnsUnlisted?: boolean;
}

/** Event-kind toggles, the address filter (input and removable chip) and the time toggle. */
export function EventFilters(props: EventFiltersProps) {
  const { kinds, onKindsChange, address, onAddressChange, display, onDisplayChange } = props;
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toggle = (kind: EventKind) =>
    onKindsChange(kinds.includes(kind) ? kinds.filter((k) => k !== kind) : [...kinds, kind]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseAddress(draft);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    setDraft('');
    onAddressChange(parsed.value);
  };

  return (
    <div className={toolbar.toolbar}>
      <fieldset className={styles.kinds}>
        <legend>Event kinds</legend>
        {EVENT_KINDS.map((kind) => (
          <Fragment key={kind}>
            <button
              type="button"
              className={`${styles.chip} ${kindTones[kind] ?? ''}`}
              aria-pressed={kinds.includes(kind)}
              onClick={() => toggle(kind)}
            >
              {EVENT_KIND_NAMES[kind]}
            </button>
            {kind === 'burn' && props.burnsUnlisted && (
              <Hint note={BURNS_NOT_LISTED}>
                <span className="muted small">not listed</span>
              </Hint>
            )}
          </Fragment>
        ))}
      </fieldset>
      <form className={field.field} onSubmit={submit} noValidate>
        <label htmlFor="address-filter-input">Sender or receiver</label>
        <div className={field.inline}>
          <input
            id="address-filter-input"
            type="text"
            value={draft}
            placeholder="0x… address"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'address-filter-error' : undefined}
            onChange={(event) => setDraft(event.target.value)}
          />
          <button type="submit" className={button.button}>
            Filter
          </button>
        </div>
        {error && (
          <span id="address-filter-error" className={field.error} role="alert">
            {error}
          </span>
        )}
      </form>
      {address && (
        <span className={styles.active}>
          <span title={address}>Address {shortenHex(address)}</span>
          <button
            type="button"
            className={button.iconButton}
            aria-label={`Remove the address filter ${address}`}
            onClick={() => onAddressChange(null)}
          >
            ×
          </button>
        </span>
      )}
      <TimeDisplayToggle display={display} onChange={onDisplayChange} />
    </div>
  );
}
