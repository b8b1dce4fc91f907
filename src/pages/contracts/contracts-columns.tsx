import { Link } from 'react-router';
import { Address } from '../../components/address';
import { ContractImage } from '../../components/contract-image';
import type { ListColumn } from '../../components/table-features';
import type { Contract } from '../../lib/contract';
import { hrefs } from '../../lib/routes';
import styles from './contracts-columns.module.css';

/** The class of the contract table: its cards' layout on a phone. */
export const contractTableClass = styles.cards;

/** The contract list's columns; their ids are the sorts of `CONTRACT_SORTS` (lib/contract-list.ts). */
export const contractColumns: ListColumn<Contract>[] = [
  {
    id: 'name',
    header: 'Name',
    accessorFn: (row) => row.name ?? '',
    meta: { className: styles.name, minWidth: 12, cardLabel: false },
    cell: ({ row }) => {
      const contract = row.original;
      const name = contract.name ?? 'Unnamed contract';
      return (
        <Link className={styles.link} to={hrefs.contractEvents(contract.address)}>
          <ContractImage image={contract.image} name={name} />
          <span className={contract.name ? '' : 'muted'} title={name}>
            {name}
          </span>
        </Link>
      );
    },
  },
  {
    id: 'symbol',
    header: 'Symbol',
    accessorFn: (row) => row.symbol ?? '',
    meta: { className: styles.symbol, width: 7 },
    cell: ({ row }) => row.original.symbol ?? <span className="muted">—</span>,
  },
  {
    id: 'type',
    header: 'Type',
    accessorFn: (row) => row.type ?? '',
    meta: { className: styles.type, width: 7 },
    cell: ({ row }) => row.original.type ?? <span className="muted">—</span>,
  },
  {
    id: 'address',
    header: 'Address',
    accessorFn: (row) => row.address,
    meta: { className: styles.address, minWidth: 10 },
    cell: ({ row }) => <Address value={row.original.address} copy />,
  },
];
