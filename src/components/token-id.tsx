import { Link } from 'react-router';
import { hrefs } from '../lib/routes';

/** A token id linking to its history; very long ids are shortened with the full id in `title`. */
export function TokenIdLink({ contract, tokenId }: { contract: string; tokenId: string }) {
  const text = tokenId.length > 14 ? `${tokenId.slice(0, 6)}…${tokenId.slice(-6)}` : tokenId;
  return (
    <Link className="mono" to={hrefs.tokenHistory(contract, tokenId)} title={`Token ${tokenId}`}>
      {text}
    </Link>
  );
}
