import { Link } from 'react-router';
import type { Contract } from '../../api/types';
import { Address } from '../../components/address';
import { ContractImage } from '../../components/contract-image';
import type { ListColumn } from '../../components/table-features';
import { hrefs } from '../../lib/routes';

export const CONTRACT_SORTS = ['name', 'symbol', 'type', 'address'] as const;

const byText =
  (field: (contract: Contract) => string | undefined) =>
  (a: { original: Contract }, b: { original: Contract }) =>
    (field(a.original) ?? '').localeCompare(field(b.original) ?? '', 'en', { sensitivity: 'base' });

export const contractColumns: ListColumn<Contract>[] = [
  {
    id: 'name',
    header: 'Name',
    accessorFn: (row) => row.name ?? '',
    sortFn: byText((row) => row.name),
    meta: { className: 'col-name' },
    cell: ({ row }) => {
      const contract = row.original;
      const name = contract.name ?? 'Unnamed contract';
      return (
        <Link className="contract-link" to={hrefs.contractEvents(contract.address)}>
          <ContractImage image={contract.image} name={name} />
          <span className={contract.name ? '' : 'muted'}>{name}</span>
        </Link>
      );
    },
  },
  {
    id: 'symbol',
    header: 'Symbol',
    accessorFn: (row) => row.symbol ?? '',
    sortFn: byText((row) => row.symbol),
    meta: { className: 'col-symbol' },
    cell: ({ row }) => row.original.symbol ?? <span className="muted">—</span>,
  },
  {
    id: 'type',
    header: 'Type',
    accessorFn: (row) => row.type ?? '',
    sortFn: byText((row) => row.type),
    meta: { className: 'col-type' },
    cell: ({ row }) => row.original.type ?? <span className="muted">—</span>,
  },
  {
    id: 'address',
    header: 'Address',
    accessorFn: (row) => row.address,
    sortFn: byText((row) => row.address),
    meta: { className: 'col-address' },
    cell: ({ row }) => <Address value={row.original.address} copy />,
  },
];
