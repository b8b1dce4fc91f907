import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { queryKeys } from '../../api/query-keys';
import { deleteWebhook } from '../../api/webhooks';
import { errorMessage } from '../../components/states';
import { formatCount } from '../../lib/format';
import { formatAbsolute } from '../../lib/time';
import { describeRule, type WebhookSummary } from '../../lib/webhooks';
import button from '../../components/button.module.css';
import field from '../../components/field.module.css';
import styles from './webhooks-page.module.css';

/**
 * Every webhook as a card (a phone's width takes it as a desk's): where it posts, its
 * rule, its deliveries counted, a link to its log, and Delete, asked twice.
 */
export function WebhookList({
  token,
  webhooks,
  logHref,
  onDeleted,
}: {
  token: string;
  webhooks: readonly WebhookSummary[];
  logHref: (id: string) => string;
  /** After a webhook is deleted: its log, if open, is closed. */
  onDeleted: (id: string) => void;
}) {
  if (webhooks.length === 0) {
    return <p role="status">No webhook yet: make one above.</p>;
  }
  return (
    <ol className={styles.cards} aria-label="Webhooks">
      {webhooks.map((webhook) => (
        <WebhookCard
          key={webhook.id}
          token={token}
          webhook={webhook}
          logHref={logHref}
          onDeleted={onDeleted}
        />
      ))}
    </ol>
  );
}

function WebhookCard({
  token,
  webhook,
  logHref,
  onDeleted,
}: {
  token: string;
  webhook: WebhookSummary;
  logHref: (id: string) => string;
  onDeleted: (id: string) => void;
}) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const deleteRef = useRef<HTMLButtonElement>(null);
  const removal = useMutation({
    mutationFn: () => deleteWebhook(token, webhook.id),
    onSuccess: () => {
      onDeleted(webhook.id);
      // The list alone: a deleted webhook's log has nothing more to say.
      return queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(token) });
    },
  });
  // Focus follows the question and its answer, so a keyboard never loses its place.
  const asked = useRef(false);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
    else if (asked.current) deleteRef.current?.focus();
    asked.current = confirming;
  }, [confirming]);
  const { pending, delivered, failed } = webhook.deliveries;
  return (
    <li className={styles.card} aria-labelledby={`webhook-${webhook.id}`}>
      <h3 id={`webhook-${webhook.id}`} className={styles.cardTitle}>
        Webhook {webhook.id}
      </h3>
      <p className={styles.url}>{webhook.url}</p>
      <p>{describeRule(webhook.rule)}</p>
      <p className="muted">
        Made {formatAbsolute(webhook.createdAt)} · {formatCount(delivered)} delivered ·{' '}
        {formatCount(pending)} pending · {formatCount(failed)} failed
      </p>
      <div className={styles.row}>
        <Link className={button.secondary} to={logHref(webhook.id)}>
          Delivery log
        </Link>
        {confirming ? (
          <span className={styles.row} role="group" aria-label={`Delete webhook ${webhook.id}?`}>
            <span>Delete it and its log?</span>
            <button
              ref={confirmRef}
              type="button"
              className={button.button}
              disabled={removal.isPending}
              onClick={() => removal.mutate()}
            >
              Yes, delete webhook {webhook.id}
            </button>
            <button type="button" className={button.secondary} onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </span>
        ) : (
          <button
            ref={deleteRef}
            type="button"
            className={button.secondary}
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        )}
      </div>
      {removal.isError && (
        <p className={field.error} role="alert">
          {errorMessage(removal.error)}
        </p>
      )}
    </li>
  );
}
