import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Link } from 'react-router';
import { deliveriesQueryOptions } from '../../api/webhooks';
import { EmptyState, ErrorState, SkeletonRows } from '../../components/states';
import { plural } from '../../lib/format';
import { formatAbsolute } from '../../lib/time';
import type { WebhookDelivery } from '../../lib/webhooks';
import button from '../../components/button.module.css';
import styles from './webhooks-page.module.css';

const seconds = (ms: number) => Math.floor(ms / 1000);

/** What became of a delivery, in a line. */
function outcome(delivery: WebhookDelivery): string {
  const tries = plural(delivery.attempts, 'attempt');
  const last =
    delivery.lastStatus !== null
      ? `the receiver answered ${delivery.lastStatus}`
      : (delivery.lastError ?? null);
  switch (delivery.status) {
    case 'delivered':
      return `Delivered ${delivery.deliveredAt ? formatAbsolute(seconds(delivery.deliveredAt)) : ''} after ${tries}`;
    case 'failed':
      return `Failed for good after ${tries}${last ? `: ${last}` : ''}`;
    case 'pending':
      return delivery.attempts === 0
        ? 'Waiting to be sent'
        : `Pending after ${tries}${last ? ` (${last})` : ''}; next attempt ${
            delivery.nextAttemptAt ? formatAbsolute(seconds(delivery.nextAttemptAt)) : 'soon'
          }`;
  }
}

/** A webhook's delivery log, newest first: each delivery's id (its `webhook-id`), event, what became of it. */
export function DeliveryLog({
  token,
  id,
  closeHref,
}: {
  token: string;
  id: string;
  closeHref: string;
}) {
  const titleId = useId();
  const log = useQuery(deliveriesQueryOptions(token, id));
  return (
    <section className={styles.panel} aria-labelledby={titleId}>
      <div className={styles.row}>
        <h2 id={titleId} className={styles.grow}>
          Delivery log of webhook {id}
        </h2>
        <button
          type="button"
          className={button.secondary}
          disabled={log.isFetching}
          onClick={() => void log.refetch()}
        >
          Refresh
        </button>
        <Link to={closeHref}>Close the log</Link>
      </div>
      {log.isPending ? (
        <SkeletonRows columns={3} rows={3} />
      ) : log.isError ? (
        <ErrorState error={log.error} onRetry={() => void log.refetch()} />
      ) : log.data.deliveries.length === 0 ? (
        <EmptyState title="No delivery yet">
          A delivery is written when the rule matches a change of hands read after the webhook was
          made.
        </EmptyState>
      ) : (
        <ol className={styles.cards} aria-label={`Deliveries of webhook ${id}`}>
          {log.data.deliveries.map((delivery) => (
            <li key={delivery.id} className={styles.card}>
              <p className={styles.line}>
                <span className={styles[delivery.status]}>{delivery.status}</span>
                <span>{delivery.event}</span>
                <code className={styles.url}>{delivery.id}</code>
              </p>
              <p className="muted">
                Written {formatAbsolute(seconds(delivery.createdAt))} · {outcome(delivery)}
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
