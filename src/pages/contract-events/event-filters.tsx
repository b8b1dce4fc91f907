import { Fragment, useState } from 'react';
import { ExplorerLink } from '../../components/explorer-link';
import { Hint } from '../../components/hint';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { shortenHex } from '../../lib/address';
import { resolveAddress } from '../../lib/address-match';
import { BURNS_NOT_LISTED } from '../../lib/event-list';
import { formatSpan, type TimeSpan } from '../../lib/time-span';
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
  /** The addresses of the loaded events: a short form or first digits name one of them. */
  knownAddresses: () => Iterable<string>;
  /** The time span of a chart's bar, when one was chosen. */
  span: TimeSpan | null;
  onSpanChange: (span: TimeSpan | null) => void;
  display: TimeDisplay;
  onDisplayChange: (display: TimeDisplay) => void;
  /** The loaded events hold no burn: the Burn toggle says why that proves nothing. */
  burnsUnlisted?: boolean;
}

/** Event-kind toggles, the address filter (input and removable chip) and the time toggle. */
export function EventFilters(props: EventFiltersProps) {
  const { kinds, onKindsChange, address, onAddressChange, display, onDisplayChange } = props;
  const { knownAddresses, span, onSpanChange } = props;
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toggle = (kind: EventKind) =>
    onKindsChange(kinds.includes(kind) ? kinds.filter((k) => k !== kind) : [...kinds, kind]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = resolveAddress(draft, knownAddresses());
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
      <form className={`${field.field} ${field.anchored}`} onSubmit={submit} noValidate>
        <label htmlFor="address-filter-input">Sender or receiver</label>
        <div className={field.inline}>
          <input
            id="address-filter-input"
            type="text"
            value={draft}
            placeholder="0x… or 0x7b84…7481"
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
          <span id="address-filter-error" className={field.floatingError} role="alert">
            {error}
          </span>
        )}
      </form>
      {address && (
        <span className={styles.active}>
          <span title={address}>Address {shortenHex(address)}</span>
          <ExplorerLink page="contract" value={address} />
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
      {span && (
        <span className={styles.active}>
          <span>Time {formatSpan(span)} UTC</span>
          <button
            type="button"
            className={button.iconButton}
            aria-label={`Remove the time filter ${formatSpan(span)}`}
            onClick={() => onSpanChange(null)}
          >
            ×
          </button>
        </span>
      )}
      <TimeDisplayToggle display={display} onChange={onDisplayChange} />
    </div>
  );
}
