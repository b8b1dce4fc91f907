import { Link } from 'react-router';
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
