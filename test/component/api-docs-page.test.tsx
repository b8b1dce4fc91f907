import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { canonicalAddress } from '../../src/lib/address';
import { busiestContract, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * The API's page: every route of the server's own document, an example request on this
 * server's busiest collection, and an example's answer fetched only when asked.
 */
const install = indexedApiForTests();
const contract = busiestContract();

describe('the API page', () => {
  it('lists every documented route with an example on this server’s data', async () => {
    const api = await install({ indexed: [contract.address] });
    const document = (await (await api.proxy.app.request('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    renderAt('/api-docs');
    // The page's code loads first: a bound on a hang, not a wait.
    await screen.findByRole('article', { name: 'GET /api/collections' }, { timeout: 30_000 });
    // Every operation of every path, GET first: a route's name is its path, its method before
    // it when not GET.
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      ['get', 'post', 'delete'].flatMap((method) =>
        methods[method] ? [{ path, method: method.toUpperCase(), ...methods[method] }] : [],
      ),
    );
    expect(operations.length).toBeGreaterThan(20);
    expect(operations.map((each) => `${each.method} ${each.path}`)).toEqual(
      expect.arrayContaining(['POST /api/webhooks', 'DELETE /api/webhooks/{id}']),
    );
    // Each route's article, found by its anchor and named by its heading; the contents link it.
    const links = within(screen.getByRole('navigation', { name: 'Routes' })).getAllByRole('link');
    const named = (each: { method: string; path: string }) =>
      each.method === 'GET' ? each.path : `${each.method} ${each.path}`;
    expect([...links.map((link) => link.textContent)].sort()).toEqual(operations.map(named).sort());
    for (const { path, method, operationId } of operations) {
      const article = window.document.getElementById(operationId)!;
      expect(article.tagName).toBe('ARTICLE');
      expect(within(article).getByRole('heading', { level: 3 })).toHaveTextContent(
        `${method} ${path}`,
      );
      expect(links.find((link) => link.textContent === named({ method, path }))).toHaveAttribute(
        'href',
        `#${operationId}`,
      );
    }
    // The operator's routes say so, and fetch no sample; the one with a body shows its schema.
    const create = window.document.getElementById('createWebhook')!;
    expect(create).toHaveTextContent('Only with the operator’s token');
    expect(within(create).queryByRole('button', { name: /Fetch a sample answer/ })).toBeNull();
    expect(within(create).getByLabelText('Body schema of /api/webhooks')).toHaveTextContent(
      'sale-above-median',
    );
    const address = canonicalAddress(contract.address)!;
    const events = window.document.getElementById('collectionEvents')!;
    expect(
      await within(events).findByText(
        `${window.location.origin}/api/collections/${address}/events?limit=5`,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'API' })).toHaveAttribute('href', '/api-docs');
  });

  it('fetches a sample answer from the keyboard, only when asked', async () => {
    const api = await install({ indexed: [contract.address] });
    const user = userEvent.setup();
    renderAt('/api-docs');
    const ranking = await screen.findByRole(
      'article',
      { name: 'GET /api/collections' },
      { timeout: 30_000 },
    );
    const asked = () => api.requests.filter((path) => path.startsWith('/api/collections?limit=5'));
    expect(asked()).toEqual([]);
    const fetch = within(ranking).getByRole('button', { name: /Fetch a sample answer/ });
    fetch.focus();
    await user.keyboard('{Enter}');
    const answer = await within(ranking).findByLabelText('Sample answer of /api/collections');
    expect(asked()).toHaveLength(1);
    const shown = JSON.parse(answer.textContent!) as { collections: { address: string }[] };
    expect(shown.collections[0]!.address).toBe(canonicalAddress(contract.address));
    expect(within(ranking).getByText(/Status 200, ETag/)).toBeInTheDocument();
  });
});
