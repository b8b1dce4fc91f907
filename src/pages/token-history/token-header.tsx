import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { ContractImage } from '../../components/contract-image';
import { CopyButton } from '../../components/copy-button';
import { ExplorerLink } from '../../components/explorer-link';
import { collectionTitle } from '../../lib/collection-title';
import type { Contract } from '../../lib/contract';
import { hrefs } from '../../lib/routes';
import { tokenIdToHex } from '../../lib/token-id';
import styles from './token-header.module.css';

/** "123456…654321": an id too long for a heading, with the whole in the copy buttons. */
export const shortTokenId = (tokenId: string) =>
  tokenId.length > 24 ? `${tokenId.slice(0, 10)}…${tokenId.slice(-10)}` : tokenId;

/**
 * The token's collection (image, name, symbol, type, from the contract list), its id in
 * decimal and hexadecimal, each with copy, and the way back to the collection.
 */
export function TokenHeader({
  address,
  contract,
  tokenId,
  type,
}: {
  address: string;
  contract: Contract | undefined;
  tokenId: string;
  type: string | undefined;
}) {
  const name = collectionTitle(contract, address);
  const hex = tokenIdToHex(BigInt(tokenId));
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb" className={styles.breadcrumb}>
        <Link to={hrefs.contracts()}>Contracts</Link> ›{' '}
        <Link to={hrefs.contractEvents(address)}>{name}</Link> › Token
      </nav>
      <div className={styles.collection}>
        <ContractImage
          address={address}
          image={contract?.image}
          name={contract?.name ?? 'Contract'}
          size={48}
        />
        <div>
          <h1 id="token-title" className={styles.title}>
            Token <span className="mono">{shortTokenId(tokenId)}</span>
          </h1>
          <div className={styles.meta}>
            <Link to={hrefs.contractEvents(address)}>{name}</Link>
            {contract?.symbol && <span className="muted">{contract.symbol}</span>}
            {type && <Badge>{type}</Badge>}
            <ExplorerLink page="contract" value={address} />
          </div>
        </div>
      </div>
      <dl className={styles.ids}>
        <div>
          <dt>Id</dt>
          <dd>
            <span className="mono">{tokenId}</span>
            <CopyButton value={tokenId} label={`Copy token id ${tokenId}`} />
          </dd>
        </div>
        <div>
          <dt>Hex</dt>
          <dd>
            <span className="mono">{hex}</span>
            <CopyButton value={hex} label={`Copy token id in hexadecimal ${hex}`} />
          </dd>
        </div>
      </dl>
    </header>
  );
}
