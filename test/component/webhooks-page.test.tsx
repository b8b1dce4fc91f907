import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { busiestContract, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * The webhooks page over the real webhook routes (src/server/webhooks) on a test
 * database: the operator's token kept in the tab, webhooks made, listed, their log,
 * deleted; the server's refusals beside their fields; a wrong token, webhooks off.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const TOKEN = 'operator-token-for-tests';
// Receivers' names resolve to a public address here: nothing is posted (no deliverer runs).
const webhooksOn = {
  proxy: { webhooks: { token: TOKEN, resolve: async () => ['93.184.216.34'] } },
};

afterEach(() => sessionStorage.clear());

async function giveToken(token = TOKEN) {
  const user = userEvent.setup();
  // The page's code loads first: a bound on a hang, not a wait.
  await user.type(await screen.findByLabelText('Token', {}, { timeout: 30_000 }), token);
  await user.click(screen.getByRole('button', { name: 'Use this token' }));
  return user;
}

describe('the webhooks page', () => {
  it('makes a webhook for a shared view, shows its secret once, lists it, opens its log, deletes it', async () => {
    const api = await install(webhooksOn);
    const view = `/contracts/${contract.address}?kind=sale`;
    const { router } = renderAt(`/webhooks?view=${encodeURIComponent(view)}`);
    const user = await giveToken();
    expect(await screen.findByText('No webhook yet: make one above.')).toBeInTheDocument();
    // The token is the tab's, never the URL's.
    expect(sessionStorage.getItem('webhooks.token')).toBe(TOKEN);
    expect(router.state.location.search).not.toContain(TOKEN);

    expect(screen.getByLabelText('Rule')).toHaveValue('view');
    expect(screen.getByLabelText('View')).toHaveValue(view);
    await user.type(screen.getByLabelText('Receiver URL'), 'https://hooks.example/nft');
    await user.click(screen.getByRole('button', { name: 'Make the webhook' }));

    const made = await screen.findByText(/Webhook \d+ made\./);
    const id = /Webhook (\d+) made/.exec(made.textContent!)![1]!;
    const secret = within(made.parentElement!).getByText(/^whsec_/).textContent!;
    // What must be seen now has the focus.
    await waitFor(() => expect(made.parentElement).toHaveFocus());
    const { rows } = await api.pool.query<{ secret: string; rule: unknown }>(
      'SELECT secret, rule FROM webhook_subscriptions WHERE id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ secret, rule: { kind: 'view', view } });
    expect(
      screen.getByRole('button', { name: `Copy the secret of webhook ${id}` }),
    ).toBeInTheDocument();

    const card = await screen.findByRole('listitem', { name: `Webhook ${id}` });
    expect(card).toHaveTextContent('https://hooks.example/nft');
    expect(card).toHaveTextContent(`Every new change of hands of ${view}`);
    expect(card).toHaveTextContent('0 delivered · 0 pending · 0 failed');
    // The list never shows a secret again.
    await user.click(screen.getByRole('button', { name: 'Done: hide the secret' }));
    expect(screen.queryByText(secret)).toBeNull();

    // A delivery in its log, written as the outbox writes one.
    const now = Date.now();
    await api.pool.query(
      `INSERT INTO webhook_deliveries (id, subscription_id, event, body, created_at, next_at, attempts, last_error)
       VALUES ($1, $2, 'view', '{}', $3, $4, 2, 'the receiver answered 503')`,
      [`msg_${id}_1`, id, now, now + 60_000],
    );
    await user.click(within(card).getByRole('link', { name: 'Delivery log' }));
    expect(router.state.location.search).toBe(
      `?log=${id}&view=${encodeURIComponent(view).replace(/%20/g, '+')}`,
    );
    const log = await screen.findByRole('list', { name: `Deliveries of webhook ${id}` });
    expect(log).toHaveTextContent(`msg_${id}_1`);
    expect(log).toHaveTextContent('pending');
    expect(log).toHaveTextContent('Pending after 2 attempts (the receiver answered 503)');

    await user.click(within(card).getByRole('button', { name: 'Delete' }));
    const confirm = within(card).getByRole('button', { name: `Yes, delete webhook ${id}` });
    expect(confirm).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('No webhook yet: make one above.')).toBeInTheDocument();
    // Its log, open, closes with it.
    await waitFor(() => expect(router.state.location.search).not.toContain('log='));
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: `Deliveries of webhook ${id}` })).toBeNull(),
    );
    const left = await api.pool.query('SELECT 1 FROM webhook_subscriptions');
    expect(left.rowCount).toBe(0);
  });

  it('shows the server’s refusal beside the field it is about', async () => {
    await install(webhooksOn);
    renderAt('/webhooks?kind=sale-above-median');
    const user = await giveToken();
    expect(await screen.findByLabelText('Rule')).toHaveValue('sale-above-median');
    await user.type(screen.getByLabelText('Receiver URL'), 'ftp://hooks.example/');
    await user.type(screen.getByLabelText('Collection'), contract.address);
    await user.type(screen.getByLabelText('Times the median'), '3');
    await user.click(screen.getByRole('button', { name: 'Make the webhook' }));
    const url = screen.getByLabelText('Receiver URL');
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveAccessibleDescription('url must be an http:// or https:// URL, not ftp:.');

    await user.clear(url);
    await user.type(url, 'https://hooks.example/');
    const factor = screen.getByLabelText('Times the median');
    await user.clear(factor);
    await user.type(factor, '0.5');
    await user.click(screen.getByRole('button', { name: 'Make the webhook' }));
    await waitFor(() => expect(factor).toHaveAttribute('aria-invalid', 'true'));
    expect(factor).toHaveAccessibleDescription('factor must be a number from 1 to 1000000.');
    expect(url).not.toHaveAttribute('aria-invalid');
  });

  it('says a wrong token was refused, and that webhooks are off', async () => {
    await install(webhooksOn);
    const { unmount } = renderAt('/webhooks');
    await giveToken('not-the-operator-token');
    expect(
      await screen.findByText(/The server refused this token/, {}, { timeout: 30_000 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Token')).toHaveAttribute('aria-invalid', 'true');
    unmount();
    sessionStorage.clear();

    await install();
    renderAt('/webhooks');
    await giveToken();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Webhooks are off on this serverWebhooks are off on this server: its operator turns them on by setting WEBHOOK_TOKEN.',
    );
  });
});
