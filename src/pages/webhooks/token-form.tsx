import { useId, useState, type FormEvent } from 'react';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import styles from './webhooks-page.module.css';

/**
 * Where the operator gives the token (`WEBHOOK_TOKEN`); `problem` says why the last one
 * was not taken. The field is a password's: the token is not shown on screen.
 */
export function TokenForm({
  onToken,
  problem,
}: {
  onToken: (token: string) => void;
  problem: string | null;
}) {
  const [value, setValue] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() !== '') onToken(value.trim());
  };
  return (
    <form className={styles.panel} onSubmit={submit} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>The operator’s token</h2>
      <p className="muted">
        Webhooks are for whoever holds this server’s <code>WEBHOOK_TOKEN</code>. It is kept in this
        tab only, and sent with each webhook request.
      </p>
      <div className={styles.row}>
        <label className={`${field.field} ${styles.grow}`}>
          Token
          <input
            type="password"
            autoComplete="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
          />
        </label>
        <button type="submit" className={button.button} disabled={value.trim() === ''}>
          Use this token
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className={field.error} role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
