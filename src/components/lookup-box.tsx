import { forwardRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { parseLookup } from '../lib/lookup';
import { hrefs } from '../lib/routes';
import button from './button.module.css';
import field from './field.module.css';
import styles from './lookup-box.module.css';

/** The header's "go to": an address, or an address and a token id. */
export const LookupBox = forwardRef<HTMLInputElement>(function LookupBox(_props, ref) {
  const navigate = useNavigate();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseLookup(value);
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(null);
    setValue('');
    const { address, tokenId } = parsed.value;
    void navigate(tokenId ? hrefs.tokenHistory(address, tokenId) : hrefs.contractEvents(address));
  };
  return (
    <form className={styles.lookup} role="search" onSubmit={submit} noValidate>
      <label htmlFor="lookup-input" className="visually-hidden">
        Go to a contract address, or an address and a token id
      </label>
      <input
        id="lookup-input"
        ref={ref}
        type="text"
        value={value}
        placeholder="Address [token id]"
        spellCheck={false}
        autoComplete="off"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'lookup-error' : undefined}
        onChange={(event) => {
          setValue(event.target.value);
          if (error) setError(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setValue('');
            setError(null);
          }
        }}
      />
      <button type="submit" className={button.button}>
        Go
      </button>
      {error && (
        <span id="lookup-error" className={field.error} role="alert">
          {error}
        </span>
      )}
    </form>
  );
});
