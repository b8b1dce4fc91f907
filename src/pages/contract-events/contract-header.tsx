import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { contractsQueryOptions } from '../../api/contracts';
import { Address } from '../../components/address';
import { ContractImage } from '../../components/contract-image';
import { Badge } from '../../components/badge';
import styles from './contract-header.module.css';

/**
 * The contract's name, image, symbol and type. The service has no "one contract"
 * endpoint, so they come from the contract list (usually cached from the list page);
 * until it is found the header shows the address, and `fallbackType` from the events.
 */
export function ContractHeader({
  address,
  fallbackType,
}: {
  address: string;
  fallbackType?: string;
}) {
  const contracts = useInfiniteQuery(contractsQueryOptions());
  const contract = useMemo(
    () =>
      contracts.data?.pages.flatMap((page) => page.items).find((item) => item.address === address),
    [contracts.data, address],
  );
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
          <Address value={address} copy />
        </p>
      </div>
    </header>
  );
}
