import { Link, Navigate, useLocation } from 'react-router';
import type { SearchReading } from '../lib/param-reading';
import { useTitle } from './use-title';
import notice from './notice.module.css';

/** A malformed address or token id in the URL: say so, and offer a way back. */
export function BadParam({ title, message }: { title: string; message: string }) {
  useTitle(title);
  return (
    <section className={notice.error} role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <Link to="/contracts">Back to the contract list</Link>
      </p>
    </section>
  );
}

/**
 * To the canonical URL in place of the link's, carrying why values of the link were left
 * out of its view, for `LeftOut` to say.
 */
export function CanonicalRedirect({ to, reading }: { to: string; reading: SearchReading }) {
  const state = reading.reasons.length > 0 ? { leftOut: reading.reasons } : undefined;
  return <Navigate replace to={to} state={state} />;
}

/**
 * Why values of the link were left out of the view (a date that is none, a sort or kind
 * the list has not, an address that is none, a key the page does not read…), said where
 * the view's controls are; the rest of the view is shown. Gone once the view changes: the
 * URL then says what is shown.
 */
export function LeftOut() {
  const state: unknown = useLocation().state;
  const reasons =
    state && typeof state === 'object' && 'leftOut' in state && Array.isArray(state.leftOut)
      ? (state.leftOut as string[])
      : [];
  if (reasons.length === 0) return null;
  return (
    <div className={notice.wait} role="status">
      <strong>Part of this link was left out; the rest of the view is shown.</strong>
      <ul className={notice.reasons}>
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
    </div>
  );
}
