import type { ReactNode } from 'react';

/** A column's heading, and the class its cells share (figures align on their last digit). */
export type ColumnHead = readonly [heading: ReactNode, className?: string];

/** The heading row of a small table that is not a `DataTable` (no sorting, no virtual rows). */
export function ColumnHeads({ columns }: { columns: readonly ColumnHead[] }) {
  return (
    <thead>
      <tr>
        {columns.map(([heading, className], index) => (
          // The headings are fixed in number and order: their place is their key.
          <th key={index} scope="col" className={className}>
            {heading}
          </th>
        ))}
      </tr>
    </thead>
  );
}
