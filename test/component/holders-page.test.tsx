import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { HOLDER_SINCE_NOTE } from '../../src/lib/answers';
import { busiestContract, renderAt, statusText } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * A collection's holders page over the query API as it runs: the figures, the spread and
 * the rows are the server's answer, the day in the URL is the moment asked for, and the
 * next page comes by the server's cursor.
 */
const install = indexedApiForTests();
const contract = busiestContract();
const page = `/contracts/${contract.address}/holders`;
const api = `/api/collections/${contract.address}/holders`;

interface Answer {
  totalHolders: number;
  tokensHeld: number;
  knownBurned: number;
  top10Share: number;
  distribution: { range: string; holders: number }[];
  holders: { owner: string; tokens: number }[];
  counted: string;
}

const holdersRequests = (requests: string[]) => requests.filter((path) => path.startsWith(api));
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling;
/** The holders table's rows' wallet links, in order (the spread above is a table too). */
const ownersShown = () =>
  within(screen.getByRole('table', { name: /largest first/ }))
    .getAllByRole('row')
    .filter((row) => row.querySelector('td') && row.getAttribute('aria-hidden') !== 'true')
    .map((row) => row.querySelector('a[href^="/addresses/"]')?.getAttribute('href'));

/** The rows on screen (about a screenful: the table is virtual) are the answer's first. */
function expectOwnersOf(answer: Answer) {
  const shown = ownersShown();
  expect(shown.length).toBeGreaterThan(5);
  expect(shown).toEqual(
    answer.holders.slice(0, shown.length).map((holder) => `/addresses/${holder.owner}`),
  );
}

describe('the holders page', () => {
  it('shows the answer’s figures, spread and holders largest first, the next page on Load more', async () => {
    const server = await install({ indexed: [contract.address] });
    const answer = (await server.answer(`${api}?limit=100`)) as unknown as Answer;
    renderAt(page);
    await screen.findByRole('table', { name: 'Holders now, largest first' });
    await waitFor(() => expect(statusText()).toContain('Whole history indexed'));
    expect(figure('Holders')).toHaveTextContent(answer.totalHolders.toLocaleString('en'));
    expect(figure('Tokens held')).toHaveTextContent(answer.tokensHeld.toLocaleString('en'));
    expect(figure('Known burns')).toHaveTextContent(answer.knownBurned.toLocaleString('en'));
    expect(figure('Top 10 hold')).toHaveTextContent(
      `${(answer.top10Share * 100).toFixed(1).replace(/\.0$/, '')}%`,
    );
    const spread = screen.getByRole('table', { name: /Holders by tokens held, now/ });
    for (const { range, holders } of answer.distribution) {
      const row = within(spread).getByRole('rowheader', { name: range }).closest('tr')!;
      expect(row).toHaveTextContent(holders.toLocaleString('en'));
    }
    expect(screen.getByText(/Tokens held, not copies/)).toHaveTextContent(HOLDER_SINCE_NOTE);
    // "Since" says what it is on its heading too: the earliest token still held.
    const since = screen.getByRole('columnheader', { name: /^Since/ });
    expect(
      within(since).getByText(/^Since/, { selector: '[tabindex="0"]' }),
    ).toHaveAccessibleDescription(HOLDER_SINCE_NOTE);
    expectOwnersOf(answer);

    expect(answer.totalHolders).toBeGreaterThan(100);
    await waitFor(() =>
      expect(statusText()).toContain(
        `100 of ${answer.totalHolders.toLocaleString('en')} holders shown`,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(statusText()).toMatch(/(200 of|all [\d,]+ holders shown)/));
    const [first, second] = holdersRequests(server.requests);
    expect(first).not.toContain('cursor=');
    expect(second).toMatch(/cursor=/);
  });

  it('asks for the end of the day in the URL, and a day picked changes the URL, the request and the rows', async () => {
    const server = await install({ indexed: [contract.address] });
    const overview = (await server.answer(`/api/collections/${contract.address}`)) as {
      figures: { firstActivity: number; lastActivity: number };
    };
    // A day about a third of the way through the history: fewer holders than now.
    const { firstActivity, lastActivity } = overview.figures;
    const at = firstActivity + Math.floor((lastActivity - firstActivity) / 3);
    const day = new Date(at * 1000).toISOString().slice(0, 10);
    const next = new Date((Math.floor(at / 86_400) + 1) * 86_400_000).toISOString().slice(0, 10);
    const then = (await server.answer(`${api}?asOf=${next}&limit=100`)) as unknown as Answer;
    const now = (await server.answer(`${api}?limit=100`)) as unknown as Answer;
    expect(then.totalHolders).not.toBe(now.totalHolders);

    const { router } = renderAt(page);
    await screen.findByRole('table', { name: 'Holders now, largest first' });
    const input = screen.getByLabelText('As of the end of (UTC)');
    await userEvent.type(input, day);
    await waitFor(() => expect(router.state.location.search).toBe(`?asOf=${day}`));
    await waitFor(() => expect(holdersRequests(server.requests).at(-1)).toContain(`asOf=${next}`));
    await screen.findByRole('table', { name: /^Holders at the end of/ });
    await waitFor(() =>
      expect(figure('Holders')).toHaveTextContent(then.totalHolders.toLocaleString('en')),
    );
    expectOwnersOf(then);
    expect(screen.getByRole('link', { name: 'Download CSV snapshot' }).getAttribute('href')).toBe(
      `${api}/export?asOf=${next}`,
    );

    // Now again: the URL without the day.
    await userEvent.click(screen.getByRole('button', { name: 'Now' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await waitFor(() =>
      expect(figure('Holders')).toHaveTextContent(now.totalHolders.toLocaleString('en')),
    );
  });

  it('opens the same day from a shared URL; a day that is none, or after today, falls back to now', async () => {
    const server = await install({ indexed: [contract.address] });
    const first = renderAt(`${page}?asOf=2000-01-01`);
    await screen.findByText('No holders at the end of 1 Jan 2000');
    expect(first.router.state.location.search).toBe('?asOf=2000-01-01');
    expect(holdersRequests(server.requests).at(-1)).toContain('asOf=2000-01-02');
    first.unmount();

    const second = renderAt(`${page}?asOf=2025-02-30&time=bogus`);
    await waitFor(() => expect(second.router.state.location.search).toBe(''));
    second.unmount();
    const third = renderAt(`${page}?asOf=2999-01-01`);
    await waitFor(() => expect(third.router.state.location.search).toBe(''));
    await screen.findByRole('table', { name: 'Holders now, largest first' });

    // A day typed after today is not taken, and the field says why.
    const input = screen.getByLabelText('As of the end of (UTC)');
    await userEvent.type(input, '2999-01-01');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Pick a day up to today/);
    expect(third.router.state.location.search).toBe('');
  });

  it('is linked from the collection’s page, and links back to its events', async () => {
    await install({ indexed: [contract.address] });
    const { router } = renderAt(`/contracts/${contract.address}`);
    await userEvent.click(await screen.findByRole('link', { name: 'Holders' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(page));
    await userEvent.click(
      await screen.findByRole('link', { name: '‹ Back to the collection’s events' }),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
  });
});
