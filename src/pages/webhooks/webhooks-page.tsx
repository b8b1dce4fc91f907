import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { queryKeys } from '../../api/query-keys';
import { webhooksQueryOptions } from '../../api/webhooks';
import { CanonicalRedirect, LeftOut } from '../../components/bad-param';
import { ErrorState, SkeletonRows } from '../../components/states';
import { useTitle } from '../../components/use-title';
import { hrefs } from '../../lib/routes';
import { searchText, updateSearch } from '../../lib/view-state';
import { readWebhooksSearch, type WebhooksView } from '../../lib/webhooks';
import { DeliveryLog } from './delivery-log';
import { TokenForm } from './token-form';
import { WebhookForm } from './webhook-form';
import { WebhookList } from './webhook-list';
import { useWebhookToken } from './webhook-token';
import button from '../../components/button.module.css';
import notice from '../../components/notice.module.css';
import styles from './webhooks-page.module.css';

/** `/webhooks`: the canonical URL first (`kind`, `view`, `log`; never the token). */
export function WebhooksRoute() {
  const location = useLocation();
  const { view, reading } = readWebhooksSearch(new URLSearchParams(location.search));
  if (reading.search !== location.search) {
    return <CanonicalRedirect to={hrefs.webhooks(reading.search)} reading={reading} />;
  }
  return <WebhooksPage view={view} />;
}

/**
 * The operator's webhooks (src/server/webhooks): with the token given, every webhook and
 * its deliveries counted, a form to make one, Delete, and a webhook's delivery log.
 */
export function WebhooksPage({ view }: { view: WebhooksView }) {
  useTitle('Webhooks');
  const [token, setToken] = useWebhookToken();
  const queryClient = useQueryClient();
  const giveToken = (next: string | null) => {
    setToken(next);
    // A token given again (after a refusal) is asked again, not answered from the cache.
    void queryClient.resetQueries({ queryKey: queryKeys.webhooksAll() });
  };
  return (
    <section aria-labelledby="webhooks-title" className={styles.page}>
      <header>
        <nav aria-label="Breadcrumb">
          <Link to={hrefs.contracts()}>Contracts</Link> › Webhooks
        </nav>
        <h1 id="webhooks-title">Webhooks</h1>
        <p>
          A webhook posts each event its rule matches to your URL, signed as Standard Webhooks say
          (HMAC-SHA256 over id, timestamp and body, with the secret shown when it is made), tried
          again with growing waits until the receiver answers 2xx, at least once: drop repeats by
          their <code>webhook-id</code>. The API:{' '}
          <Link to={hrefs.apiDocs('createWebhook')}>/api-docs</Link>.
        </p>
      </header>
      <LeftOut />
      {token === null ? (
        <TokenForm onToken={giveToken} problem={null} />
      ) : (
        <Webhooks token={token} view={view} onToken={giveToken} />
      )}
    </section>
  );
}

function Webhooks({
  token,
  view,
  onToken,
}: {
  token: string;
  view: WebhooksView;
  onToken: (token: string | null) => void;
}) {
  const list = useQuery(webhooksQueryOptions(token));
  const [params, setParams] = useSearchParams();
  const hrefWith = useCallback(
    (changes: Record<string, string | null>) =>
      hrefs.webhooks(searchText(updateSearch(params, changes))),
    [params],
  );
  const setSearch = (changes: Record<string, string | null>) =>
    setParams((old) => updateSearch(old, changes), { replace: true });
  const setKind = (kind: string) => setSearch({ kind: kind === 'view' ? null : kind });
  if (list.isError && list.error instanceof ApiError) {
    if (list.error.kind === 'unauthorized') {
      return (
        <TokenForm
          onToken={onToken}
          problem="The server refused this token: it is not its WEBHOOK_TOKEN. Give the token again."
        />
      );
    }
    if (list.error.kind === 'not_found') {
      return (
        <div className={notice.wait} role="alert">
          <strong>Webhooks are off on this server</strong>
          <span>{list.error.message}</span>
        </div>
      );
    }
  }
  return (
    <>
      <div className={styles.row}>
        <span className="muted">The token is kept in this tab until it closes.</span>
        <button type="button" className={button.secondary} onClick={() => onToken(null)}>
          Forget the token
        </button>
      </div>
      <WebhookForm token={token} kind={view.kind} view={view.view} onKind={setKind} />
      {view.log && <DeliveryLog token={token} id={view.log} closeHref={hrefWith({ log: null })} />}
      <section className={styles.panel} aria-labelledby="webhook-list-title">
        <div className={styles.row}>
          <h2 id="webhook-list-title" className={styles.grow}>
            Your webhooks
          </h2>
          <button
            type="button"
            className={button.secondary}
            disabled={list.isFetching}
            onClick={() => void list.refetch()}
          >
            Refresh
          </button>
        </div>
        {list.isPending ? (
          <SkeletonRows columns={3} rows={2} />
        ) : list.isError ? (
          <ErrorState error={list.error} onRetry={() => void list.refetch()} />
        ) : (
          <WebhookList
            token={token}
            webhooks={list.data.webhooks}
            logHref={(id) => hrefWith({ log: id })}
            onDeleted={(id) => {
              if (view.log === id) setSearch({ log: null });
            }}
          />
        )}
      </section>
    </>
  );
}
