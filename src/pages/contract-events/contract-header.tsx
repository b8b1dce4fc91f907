import { Address } from '../../components/address';
import { Badge } from '../../components/badge';
import { ContractImage } from '../../components/contract-image';
import type { Contract } from '../../lib/contract';
import styles from './contract-header.module.css';

/**
 * The contract's name, image, symbol and type (from the contract list, see useContract);
 * until it is found the header shows the address, and `fallbackType` from the events.
 */
export function ContractHeader({
  address,
  contract,
  fallbackType,
}: {
  address: string;
  contract: Contract | undefined;
  fallbackType?: string;
}) {
  const name = contract?.name ?? 'Contract';
  const type = contract?.type ?? fallbackType;
  return (
    <header className={styles.header}>
      <ContractImage image={contract?.image} name={name} size={56} />
      <div>
        <h1 id="contract-title">
          {name}
          {contract?.symbol && <span className="muted"> · {contract.symbol}</span>}
        </h1>
        <p className={styles.meta}>
          {type && <Badge>{type}</Badge>}
          <Address value={address} copy explore />
        </p>
      </div>
    </header>
  );
}
