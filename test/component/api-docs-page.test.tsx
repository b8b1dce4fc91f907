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
      paths: Record<string, { get: { operationId: string } }>;
    };
    renderAt('/api-docs');
    // The page's code loads first: a bound on a hang, not a wait.
    await screen.findByRole('article', { name: 'GET /api/collections' }, { timeout: 30_000 });
    const paths = Object.keys(document.paths);
    expect(paths.length).toBeGreaterThan(20);
    // Each route's article, found by its anchor and named by its heading; the contents link it.
    const links = within(screen.getByRole('navigation', { name: 'Routes' })).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(paths);
    for (const path of paths) {
      const { operationId } = document.paths[path]!.get;
      const article = window.document.getElementById(operationId)!;
      expect(article.tagName).toBe('ARTICLE');
      expect(within(article).getByRole('heading', { level: 3 })).toHaveTextContent(`GET ${path}`);
      expect(links[paths.indexOf(path)]).toHaveAttribute('href', `#${operationId}`);
    }
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
