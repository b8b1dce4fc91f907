import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type {
  AlsoHoldAnswer,
  HoldersCompareAnswer,
  HoldersOverlapAnswer,
} from '../../src/lib/answers';
import { byEventCount, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * The views beside a collection's holders over the query API as it runs: what its holders
 * also hold, who holds it and another, its holders at two days compared. Each is the
 * server's answer, its state lives in the URL, and bad values in it are said.
 */
const install = indexedApiForTests();
const [contract, other] = byEventCount();
const page = `/contracts/${contract!.address}/holders`;
const api = `/api/collections/${contract!.address}/holders`;
const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextSibling;
const DAY = 86_400;
// The page and each view are lazy chunks, compiled on their first import in a test run.
const LAZY = { timeout: 30_000 };
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The rows' text of a table, header row left out. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .filter((row) => row.querySelector('td') && row.getAttribute('aria-hidden') !== 'true');

describe('the holders page’s other views', () => {
  it('lists what its holders also hold, and goes to who holds both by its link', async () => {
    const server = await install({ indexed: [contract!.address, other!.address] });
    const answer = (await server.answer(`${api}/also-hold`)) as unknown as AlsoHoldAnswer;
    expect(answer.collections.length).toBeGreaterThan(0);
    const { router } = renderAt(page);
    await userEvent.click(await screen.findByRole('link', { name: 'Also hold' }, LAZY));
    await waitFor(() => expect(router.state.location.search).toBe('?view=also-hold'));
    const table = await screen.findByRole(
      'table',
      { name: /also hold, most holders in common/ },
      LAZY,
    );
    const rows = rowsOf(table);
    expect(rows.length).toBe(answer.collections.length);
    const top = answer.collections[0]!;
    expect(rows[0]).toHaveTextContent(top.inCommon.toLocaleString('en'));
    expect(figure('Its holders')).toHaveTextContent(answer.holders.toLocaleString('en'));
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${api}/also-hold/export`,
    );

    const overlap = (await server.answer(
      `${api}/overlap/${top.address}?limit=100`,
    )) as unknown as HoldersOverlapAnswer;
    await userEvent.click(
      within(rows[0]!).getByRole('link', { name: `Who holds both: ${top.name}` }),
    );
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?view=overlap&with=${top.address}`),
    );
    await screen.findByRole('table', { name: /^Holders of both/ });
    await waitFor(() =>
      expect(figure('Hold both')).toHaveTextContent(overlap.inCommon.toLocaleString('en')),
    );
    expect(figure(`Holders of ${top.name}`)).toHaveTextContent(
      overlap.otherHolders.toLocaleString('en'),
    );
    expect(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')).toBe(
      `${api}/overlap/${top.address}/export`,
    );
  });

  it('takes the other collection typed, says when it is no address or no collection', async () => {
    await install({ indexed: [contract!.address, other!.address] });
    const { router } = renderAt(`${page}?view=overlap`);
    const input = await screen.findByLabelText('The other collection’s address', {}, LAZY);
    await userEvent.type(input, 'nonsense{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(/Enter a collection’s address/);
    expect(router.state.location.search).toBe('?view=overlap');

    await userEvent.clear(input);
    const nowhere = `0x${'7'.repeat(64)}`;
    await userEvent.type(input, `${nowhere}{Enter}`);
    await waitFor(() => expect(router.state.location.search).toBe(`?view=overlap&with=${nowhere}`));
    expect(
      await screen.findByText(`${nowhere} is not a collection the Token Events Service lists.`, {
        exact: false,
      }),
    ).toBeInTheDocument();
    // The rest of the view stays: its field and the views' links.
    expect(screen.getByRole('link', { name: 'Overlap' })).toHaveAttribute('aria-current', 'page');
  });

  it('compares the ends of two days from a shared URL, and says why days that cannot be are left out', async () => {
    const server = await install({ indexed: [contract!.address] });
    const overview = (await server.answer(`/api/collections/${contract!.address}`)) as {
      figures: { firstActivity: number; lastActivity: number };
    };
    const { firstActivity, lastActivity } = overview.figures;
    const from = Math.floor((firstActivity + (lastActivity - firstActivity) / 3) / DAY) * DAY;
    const to = Math.floor((firstActivity + ((lastActivity - firstActivity) * 2) / 3) / DAY) * DAY;
    const search = `from=${day(from + DAY)}&to=${day(to + DAY)}`;
    const answer = (await server.answer(
      `${api}/compare?${search}&limit=100`,
    )) as unknown as HoldersCompareAnswer;
    expect(answer.changes.length).toBeGreaterThan(0);

    const { router, unmount } = renderAt(`${page}?compare=${day(from)}..${day(to)}`);
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?compare=${day(from)}..${day(to)}&view=compare`),
    );
    const table = await screen.findByRole('table', { name: /^Holders whose count changed/ }, LAZY);
    await waitFor(() =>
      expect(figure('Joined')).toHaveTextContent(answer.changed.joined.toLocaleString('en')),
    );
    expect(figure('Left')).toHaveTextContent(answer.changed.left.toLocaleString('en'));
    const first = rowsOf(table)[0]!;
    const top = answer.changes[0]!;
    expect(within(first).getByRole('link', { name: /0x/ }).getAttribute('href')).toBe(
      `/addresses/${top.owner}`,
    );
    const figures = screen.getByRole('table', { name: 'The collection at both moments' });
    const holders = within(figures).getByRole('rowheader', { name: 'Holders' }).closest('tr')!;
    expect(holders).toHaveTextContent(answer.figures.from.totalHolders.toLocaleString('en'));
    expect(holders).toHaveTextContent(answer.figures.to.totalHolders.toLocaleString('en'));
    expect(screen.getByRole('link', { name: 'Download figures CSV' }).getAttribute('href')).toBe(
      `${api}/compare/export?${search}&part=figures`,
    );

    // The second day set to now: the URL says so, the answer is asked without `to`.
    await userEvent.click(screen.getByRole('button', { name: 'Now' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe(`?compare=${day(from)}..&view=compare`),
    );
    await waitFor(() =>
      expect(server.requests.at(-1)).toMatch(
        new RegExp(`/compare\\?from=${day(from + DAY)}&limit`),
      ),
    );
    // A first day after the second is not taken: the field says why.
    await userEvent.clear(screen.getByLabelText('to'));
    await userEvent.type(screen.getByLabelText('to'), day(from - 5 * DAY));
    expect(await screen.findByRole('alert')).toHaveTextContent(/first day is after the second/);
    expect(router.state.location.search).toBe(`?compare=${day(from)}..&view=compare`);
    unmount();

    // From a link: days in the wrong order, and a day that is none, are said and left out.
    const second = renderAt(`${page}?compare=${day(to)}..${day(from)}&asOf=2025-01-01`);
    await waitFor(() =>
      expect(second.router.state.location.search).toBe('?asOf=2025-01-01&view=compare'),
    );
    expect(await screen.findByText(/first day is after the second/)).toBeInTheDocument();
    second.unmount();
    const third = renderAt(`${page}?view=compare&compare=2025-02-30..`);
    await waitFor(() => expect(third.router.state.location.search).toBe('?view=compare'));
    expect(await screen.findByText(/is not two days like/)).toBeInTheDocument();
  });
});
