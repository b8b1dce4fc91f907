import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { lookupQueryOptions } from '../../api/lookup';
import { hrefs } from '../../lib/routes';
import notice from '../../components/notice.module.css';

/**
 * The page of an address that is no collection the service lists (the server's 404):
 * said once, with its wallet's page when the index has seen it as a wallet, instead of a
 * collection's page of zeros. The page names its title.
 */
export function NotACollection({ address, message }: { address: string; message: string }) {
  const lookup = useQuery(lookupQueryOptions(address));
  const wallet = lookup.data?.matches.some((match) => match.kind === 'wallet');
  const transaction = lookup.data?.matches.some((match) => match.kind === 'transaction');
  return (
    <section className={notice.notice} role="alert" aria-labelledby="contract-title">
      <h1 id="contract-title">Not a collection</h1>
      <p>
        <span className="mono">{address}</span>
      </p>
      <p>{message}</p>
      {wallet && (
        <p>
          The index has seen it as a wallet:{' '}
          <Link to={hrefs.wallet(address)}>open its wallet page</Link>.
        </p>
      )}
      {transaction && (
        <p>
          It is a transaction: <Link to={hrefs.transaction(address)}>open the transaction</Link>.
        </p>
      )}
      <p>
        <Link to={hrefs.contracts()}>Go to the collections</Link>
      </p>
    </section>
  );
}
