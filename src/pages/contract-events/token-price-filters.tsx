import { useId, useState, type FormEvent } from 'react';
import { priceUnit, type EventView } from '../../lib/event-view';
import { exactAmount, parseAmount } from '../../lib/price';
import { ok, type Parsed } from '../../lib/result';
import { parseTokenId, tokenIdToDecimal } from '../../lib/token-id';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import styles from './event-filters.module.css';

type Change = (changes: Record<string, string | null>) => void;

/** One end of the range: empty is open, else an amount in the unit. */
const readEnd = (text: string, unit: { name: string; decimals: number }): Parsed<bigint | null> =>
  text.trim() === '' ? ok(null) : parseAmount(text, unit.decimals, unit.name);

/** One token's events: its id typed in decimal or hex, checked before it is set. */
export function TokenFilter({ onChange }: { onChange: Change }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseTokenId(draft);
    if (!parsed.ok) return setError(parsed.error);
    setError(null);
    setDraft('');
    onChange({ token: tokenIdToDecimal(parsed.value) });
  };
  return (
    <form className={`${field.field} ${field.anchored}`} onSubmit={submit} noValidate>
      <label htmlFor={`${id}-token`}>Token</label>
      <div className={field.inline}>
        <input
          id={`${id}-token`}
          className={styles.token}
          type="text"
          value={draft}
          placeholder="1234 or 0x4d2"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-token-error` : undefined}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className={button.button} aria-label="Filter by token">
          Filter
        </button>
      </div>
      {error && (
        <span
          id={`${id}-token-error`}
          className={`${field.floatingError} ${styles.fieldError}`}
          role="alert"
        >
          {error}
        </span>
      )}
    </form>
  );
}

/**
 * Sale prices from and up to (both included), typed in the chosen currency's own units
 * and set in the URL as base units. Without one currency it is disabled, saying why:
 * prices in different currencies are never compared. Keyed on the view's range by its
 * parent, so a range removed elsewhere empties the fields.
 */
export function PriceRange({ view, onChange }: { view: EventView; onChange: Change }) {
  const id = useId();
  const unit = priceUnit(view.currency);
  const shown = (units: string | null) =>
    units === null || unit === null ? '' : exactAmount(BigInt(units), unit.decimals);
  const [min, setMin] = useState(shown(view.minPrice));
  const [max, setMax] = useState(shown(view.maxPrice));
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!unit) return;
    const low = readEnd(min, unit);
    const high = readEnd(max, unit);
    if (!low.ok) return setError(`From: ${low.error}`);
    if (!high.ok) return setError(`Up to: ${high.error}`);
    if (low.value !== null && high.value !== null && low.value > high.value) {
      return setError('From is above Up to: the lowest price comes first.');
    }
    setError(null);
    onChange({
      minPrice: low.value?.toString() ?? null,
      maxPrice: high.value?.toString() ?? null,
    });
  };
  const noteId = `${id}-price-note`;
  const errorId = `${id}-price-error`;
  return (
    <form
      className={`${field.field} ${field.anchored} ${styles.priceForm}`}
      onSubmit={submit}
      noValidate
    >
      <fieldset className={styles.range} disabled={!unit} aria-describedby={noteId}>
        <legend>Price{unit ? ` (${unit.name})` : ''}</legend>
        <div className={field.inline}>
          <PriceEnd
            id={`${id}-min`}
            label="From (included)"
            placeholder="from"
            value={min}
            onChange={setMin}
            errorId={error ? errorId : undefined}
            invalid={error?.startsWith('From') ?? false}
          />
          <span aria-hidden="true">–</span>
          <PriceEnd
            id={`${id}-max`}
            label="Up to (included)"
            placeholder="up to"
            value={max}
            onChange={setMax}
            errorId={error ? errorId : undefined}
            invalid={error?.startsWith('Up to') ?? false}
          />
          <button type="submit" className={button.button}>
            Set
          </button>
        </div>
      </fieldset>
      {unit ? (
        <span id={noteId} className="visually-hidden">
          Sales priced from and up to these amounts, both included.
        </span>
      ) : (
        <span id={noteId} className="muted small">
          Choose one currency for a price range: prices in different currencies are not compared.
        </span>
      )}
      {error && (
        <span id={errorId} className={`${field.floatingError} ${styles.fieldError}`} role="alert">
          {error}
        </span>
      )}
    </form>
  );
}

/** One end of the price range: a decimal amount, labelled for screen readers. */
function PriceEnd(props: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  /** The range's error message, when there is one. */
  errorId: string | undefined;
  invalid: boolean;
}) {
  return (
    <>
      <label htmlFor={props.id} className="visually-hidden">
        {props.label}
      </label>
      <input
        id={props.id}
        className={styles.price}
        type="text"
        inputMode="decimal"
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        aria-invalid={props.invalid ? true : undefined}
        aria-describedby={props.errorId}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </>
  );
}
