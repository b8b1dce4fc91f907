import { queryOptions } from '@tanstack/react-query';
import type { CreatedWebhook, WebhookDelivery, WebhookSummary } from '../lib/webhooks';
import { sendAnswer } from './client';
import { queryKeys } from './query-keys';

/**
 * The webhook routes (`/api/webhooks…`, src/server/webhooks), each asked with the
 * operator's token. Deliveries change as they are sent: the page asks again when the tab
 * comes back into view, and on its Refresh button.
 */
// A log's length: the server's own default.
const LOG_LIMIT = 50;

export const webhooksQueryOptions = (token: string) =>
  queryOptions({
    queryKey: queryKeys.webhooks(token),
    queryFn: ({ signal }) =>
      sendAnswer<{ webhooks: WebhookSummary[] }>('/api/webhooks', { token, signal }, ['webhooks']),
    refetchOnWindowFocus: true,
  });

export const deliveriesQueryOptions = (token: string, id: string) =>
  queryOptions({
    queryKey: queryKeys.webhookDeliveries(token, id),
    queryFn: ({ signal }) =>
      sendAnswer<{ deliveries: WebhookDelivery[] }>(
        `/api/webhooks/${id}/deliveries?limit=${LOG_LIMIT}`,
        { token, signal },
        ['deliveries'],
      ),
    refetchOnWindowFocus: true,
  });

export const createWebhook = (token: string, request: { url: string; rule: unknown }) =>
  sendAnswer<CreatedWebhook>('/api/webhooks', { method: 'POST', token, body: request }, [
    'id',
    'secret',
  ]);

export const deleteWebhook = (token: string, id: string) =>
  sendAnswer<{ deleted: string }>(`/api/webhooks/${id}`, { method: 'DELETE', token }, ['deleted']);
