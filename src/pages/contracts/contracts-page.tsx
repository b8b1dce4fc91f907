import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { contractsQueryOptions } from '../../api/contracts';
import { contractRows } from '../../api/list-shapes';
import { useInfiniteList } from '../../api/use-infinite-list';
import { DataTable } from '../../components/data-table';
import { ListFooter } from '../../components/list-footer';
import { LoadStatus } from '../../components/load-status';
import { EmptyState, ErrorState, RetryingNotice, SkeletonRows } from '../../components/states';
import { useTitle } from '../../components/use-title';
import type { Contract } from '../../lib/contract';
import {
  CONTRACT_SORTS,
  filterContracts,
  sortContracts,
  type ContractSort,
} from '../../lib/contract-list';
import { hrefs } from '../../lib/routes';
import { formatSort, parseSort, updateSearch, type SortState } from '../../lib/view-state';
import { contractColumns, contractTableClass } from './contracts-columns';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import toolbar from '../../components/toolbar.module.css';

const contractKey = (contract: Contract) => contract.address;

export function ContractsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const openContract = useCallback(
    (contract: Contract) => void navigate(hrefs.contractEvents(contract.address)),
    [navigate],
  );
  useTitle('Token contracts');
  const query = useInfiniteQuery(contractsQueryOptions());
  const list = useInfiniteList(query, contractRows);
  const text = params.get('q') ?? '';
  const sort = parseSort(params.get('sort'), CONTRACT_SORTS);
  const rows = useMemo(() => filterContracts(list.items, text), [list.items, text]);

  const setSort = useCallback(
    (next: SortState<ContractSort> | null) =>
      setParams((old) => updateSearch(old, { sort: formatSort(next) }), { replace: true }),
    [setParams],
  );
  const setText = (value: string) =>
    setParams((old) => updateSearch(old, { q: value || null }), { replace: true });

  return (
    <section aria-labelledby="contracts-title">
      <div>
        <h1 id="contracts-title">Token contracts</h1>
        <p className="muted">Collections indexed by the Token Events Service, oldest first.</p>
      </div>
      <div className={toolbar.toolbar}>
        <label className={field.field}>
          <span>Filter loaded contracts</span>
          <input
            type="search"
            value={text}
            placeholder="Name, symbol, address…"
            onChange={(event) => setText(event.target.value)}
          />
        </label>
      </div>
      <RetryingNotice error={query.failureReason} failureCount={query.failureCount} />
      {query.isPending ? (
        <SkeletonRows columns={4} />
      ) : query.isError && list.items.length === 0 ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : list.items.length === 0 && !list.hasMore ? (
        <EmptyState title="No contracts yet">The service lists no token contracts.</EmptyState>
      ) : (
        <>
          <LoadStatus
            noun="contracts"
            list={list}
            shown={text ? rows.length : undefined}
            sortedBy={sort?.id}
          />
          {rows.length === 0 && text ? (
            <EmptyState title="No loaded contract matches">
              <button type="button" className={button.button} onClick={() => setText('')}>
                Clear the filter
              </button>
            </EmptyState>
          ) : null}
          {rows.length > 0 && (
            <DataTable
              caption="Token contracts"
              rows={rows}
              columns={contractColumns}
              getRowKey={contractKey}
              sort={sort}
              onSortChange={setSort}
              sortRows={sortContracts}
              rowHeight={56}
              className={contractTableClass}
              onRowOpen={openContract}
              onNearEnd={text ? undefined : list.loadMoreAuto}
            />
          )}
          <ListFooter noun="contracts" list={list} />
        </>
      )}
    </section>
  );
}
