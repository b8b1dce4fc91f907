import { Link, useLocation } from 'react-router';
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

/** The navigation state that carries why values of a link were left out of its view. */
export const leftOutState = (reasons: string[]) =>
  reasons.length > 0 ? { leftOut: reasons } : undefined;

/**
 * Why values of the link were left out of the view (a date that is none, dates that run
 * backwards, a day after today), said where the view's controls are; the rest of the
 * view is shown. Gone once the view changes: the URL then says what is shown.
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
