import { Fragment, useState } from 'react';
import { ExplorerLink } from '../../components/explorer-link';
import { Hint } from '../../components/hint';
import { TimeDisplayToggle } from '../../components/time-display-toggle';
import { shortenHex } from '../../lib/address';
import { resolveAddress } from '../../lib/address-match';
import type { Overview } from '../../lib/answers';
import { BURNS_NOT_LISTED } from '../../lib/event-list';
import { formatPriceRange, type EventView } from '../../lib/event-view';
import { formatSpan } from '../../lib/time-span';
import { EVENT_KIND_NAMES, EVENT_KINDS, type EventKind } from '../../lib/token-event';
import { formatSort, type TimeDisplay } from '../../lib/view-state';
import { overviewShares } from '../../lib/wash-share';
import { kindTones } from '../../components/badge';
import { DateRange } from '../../components/date-range';
import { WashSwitch } from '../../components/wash-switch';
import { SortChoice } from './sort-choice';
import { PriceRange, TokenFilter } from './token-price-filters';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import toolbar from '../../components/toolbar.module.css';
import styles from './event-filters.module.css';

interface EventFiltersProps {
  view: EventView;
  onChange: (changes: Record<string, string | null>) => void;
  /** The collection's figures: its marketplaces and currencies are the choices offered. */
  figures: Overview | null | undefined;
  /** The addresses of the rows on screen: a short form or first digits name one of them. */
  knownAddresses: () => Iterable<string>;
  display: TimeDisplay;
  onDisplayChange: (display: TimeDisplay) => void;
}

/**
 * The view's filters, every one answered by the server over the whole history: kinds,
 * sender or receiver, a token, a date range, marketplace, currency and a price range in
 * it, flagged sales left out or not; the events' order; and the time display.
 */
export function EventFilters({ view, onChange, figures, ...props }: EventFiltersProps) {
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const toggle = (kind: EventKind) => {
    const next = view.kinds.includes(kind)
      ? view.kinds.filter((k) => k !== kind)
      : [...view.kinds, kind];
    onChange({ kind: EVENT_KINDS.filter((k) => next.includes(k)).join(',') || null });
  };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = resolveAddress(draft, props.knownAddresses());
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    setDraft('');
    onChange({ address: parsed.value });
  };
  const priceRange = formatPriceRange(view);
  const marketplaces = (figures?.marketplaces ?? []).flatMap((m) => (m.name ? [m.name] : []));
  // ETH counts the sales naming no currency; `none` picks those alone.
  const currencies = [
    ...(figures?.volume ?? []).map((v) => v.currency.symbol ?? v.currency.address),
    ...(figures?.assumedSales ? ['none'] : []),
  ];

  return (
    <div className={toolbar.toolbar}>
      <fieldset className={styles.kinds} data-filtering={view.kinds.length > 0 || undefined}>
        <legend>
          Event kinds {view.kinds.length === 0 && <span className="muted">(all)</span>}
        </legend>
        {EVENT_KINDS.map((kind) => (
          <Fragment key={kind}>
            <button
              type="button"
              className={`${styles.chip} ${kindTones[kind] ?? ''}`}
              aria-pressed={view.kinds.includes(kind)}
              onClick={() => toggle(kind)}
            >
              {EVENT_KIND_NAMES[kind]}
            </button>
            {kind === 'burn' && (
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
      <TokenFilter onChange={onChange} />
      <SortChoice sort={view.sort} onChange={(sort) => onChange({ sort: formatSort(sort) })} />
      <DateRange span={view.span} onChange={(from, to) => onChange({ from, to })} />
      {/* Both choices are there from the start (Any until the figures name the rest), so
          the row keeps its height when they come. */}
      <AnyOrOne
        label="Marketplace"
        value={view.marketplace}
        options={marketplaces}
        onChange={(marketplace) => onChange({ marketplace })}
      />
      <AnyOrOne
        label="Currency"
        value={view.currency}
        options={currencies}
        name={(currency) => (currency === 'none' ? 'None named (ETH*)' : shortName(currency))}
        // A range in one currency's units means nothing in another's.
        onChange={(currency) => onChange({ currency, minPrice: null, maxPrice: null })}
      />
      <PriceRange
        key={`${view.currency}|${view.minPrice}|${view.maxPrice}`}
        view={view}
        onChange={onChange}
      />
      {view.address && (
        <span className={styles.active}>
          <span title={view.address}>Address {shortenHex(view.address)}</span>
          <ExplorerLink page="contract" value={view.address} />
          <button
            type="button"
            className={button.iconButton}
            aria-label={`Remove the address filter ${view.address}`}
            onClick={() => onChange({ address: null })}
          >
            ×
          </button>
        </span>
      )}
      {view.token && (
        <ActiveFilter
          label={`Token ${view.token}`}
          name={`the token filter ${view.token}`}
          onRemove={() => onChange({ token: null })}
        />
      )}
      {priceRange && (
        <ActiveFilter
          label={`Price ${priceRange}`}
          name={`the price filter ${priceRange}`}
          onRemove={() => onChange({ minPrice: null, maxPrice: null })}
        />
      )}
      {view.span && (
        <span className={styles.active}>
          <span>Time {formatSpan(view.span)} UTC</span>
          <button
            type="button"
            className={button.iconButton}
            aria-label={`Remove the time filter ${formatSpan(view.span)}`}
            onClick={() => onChange({ from: null, to: null })}
          >
            ×
          </button>
        </span>
      )}
      <WashSwitch
        exclude={view.wash === 'exclude'}
        flagged={figures?.washSales}
        shares={overviewShares(figures)}
        onChange={(exclude) => onChange({ wash: exclude ? 'exclude' : null })}
        only={view.wash === 'only'}
        onOnlyChange={(only) => onChange({ wash: only ? 'only' : null })}
      />
      <TimeDisplayToggle display={props.display} onChange={props.onDisplayChange} />
    </div>
  );
}

/** A filter on, as a chip that removes it. */
function ActiveFilter({
  label,
  name,
  onRemove,
}: {
  label: string;
  name: string;
  onRemove: () => void;
}) {
  return (
    <span className={styles.active}>
      <span className={styles.activeLabel} title={label}>
        {label}
      </span>
      <button
        type="button"
        className={button.iconButton}
        aria-label={`Remove ${name}`}
        onClick={onRemove}
      >
        ×
      </button>
    </span>
  );
}

/** A choice of Any or one of `options`; the chosen one is offered even when they lack it. */
function AnyOrOne({
  label,
  value,
  options,
  name = (option) => option,
  onChange,
}: {
  label: string;
  value: string | null;
  options: readonly string[];
  name?: (option: string) => string;
  onChange: (value: string | null) => void;
}) {
  return (
    <label className={field.field}>
      <span>{label}</span>
      <select
        className={styles.select}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">Any</option>
        {[...new Set([...(value ? [value] : []), ...options])].map((option) => (
          <option key={option} value={option}>
            {name(option)}
          </option>
        ))}
      </select>
    </label>
  );
}

const shortName = (currency: string) =>
  currency.startsWith('0x') ? shortenHex(currency) : currency;
