import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { WalletInCollectionAnswer } from '../../src/lib/answers';
import { plural } from '../../src/lib/format';
import { shortenHex } from '../../src/lib/address';
import { busiestContract, renderAt } from './harness';
import { indexedApiForTests } from './indexed-api';

/**
 * The wallet page with a collection chosen, over the query API as it runs: the wallet
 * inside the collection (figures, the held chart, results, counterparties, tokens held)
 * says what the server's answer says, its links lead to the other wallets in the same
 * collection and to the tokens, and the collection cards lead to it.
 */
const install = indexedApiForTests();
const contract = busiestContract();

const figure = (label: string) =>
  within(document.querySelector<HTMLElement>('dl[aria-label^="The wallet in"]')!).getByText(label, {
    selector: 'dt',
  }).nextSibling as HTMLElement;

/** The collection's largest holder now: a wallet with tokens, trades and counterparties. */
async function busyWallet(server: Awaited<ReturnType<typeof install>>) {
  const holders = (await server.answer(`/api/collections/${contract.address}/holders?limit=1`)) as {
    holders: { owner: string }[];
  };
  return holders.holders[0]!.owner;
}

describe('a wallet inside a collection', () => {
  it('shows the server’s figures, holdings over time, results, counterparties and tokens', async () => {
    const server = await install({ indexed: [contract.address] });
    const wallet = await busyWallet(server);
    const answer = (await server.answer(
      `/api/wallets/${wallet}/collections/${contract.address}`,
    )) as unknown as WalletInCollectionAnswer;
    const { router } = renderAt(`/addresses/${wallet}?collection=${contract.address}`);

    const heading = await screen.findByRole('heading', { level: 2, name: /^In / });
    expect(within(heading).getByRole('link')).toHaveAttribute(
      'href',
      `/contracts/${contract.address}`,
    );
    await waitFor(() => expect(figure('Held now')).toHaveTextContent(/\d/));
    expect(figure('Held now')).toHaveTextContent(
      `${answer.holdsNow} token${answer.holdsNow === 1 ? '' : 's'}`,
    );
    expect(figure('Changes of hands')).toHaveTextContent(answer.changes.toLocaleString('en'));
    expect(figure('Mints received')).toHaveTextContent(String(answer.counts.mintsReceived));
    expect(figure('Transfers in')).toHaveTextContent(String(answer.counts.transfersIn));
    expect(figure('Transfers out')).toHaveTextContent(String(answer.counts.transfersOut));
    expect(figure('Flips')).toHaveTextContent(String(answer.flips));
    // Bought and sold: a line per currency, never a sum across them.
    for (const side of ['bought', 'sold'] as const) {
      const shown = figure(side === 'bought' ? 'Bought' : 'Sold');
      for (const trade of answer[side])
        expect(shown).toHaveTextContent(plural(trade.sales, 'sale'));
      expect(within(shown).queryAllByRole('listitem')).toHaveLength(answer[side].length);
    }
    expect(screen.getByText(/Whole history indexed/)).toBeInTheDocument();

    // The held chart: one value per bucket on its slider, the last one the tokens held now.
    const slider = screen.getByRole('slider', {
      name: `Tokens held, one value per ${answer.interval}`,
    });
    expect(slider).toHaveAttribute('aria-valuemax', String(answer.held.length));
    expect(slider.getAttribute('aria-valuetext')).toContain(
      `${answer.holdsNow} token${answer.holdsNow === 1 ? '' : 's'} held at the end`,
    );
    act(() => slider.focus());
    await userEvent.keyboard('{Home}');
    expect(slider).toHaveAttribute('aria-valuenow', '1');
    expect(slider.getAttribute('aria-valuetext')).toContain(
      `${answer.held[0]!.tokens} token${answer.held[0]!.tokens === 1 ? '' : 's'}`,
    );

    // Results: a card per currency, or the words for none; what is left out, said.
    const results = screen.getByRole('region', { name: 'Realised result per currency' });
    if (answer.results.length > 0) {
      expect(within(results).getAllByText('Result', { selector: 'dt' })).toHaveLength(
        answer.results.length,
      );
    } else {
      expect(results).toHaveTextContent('no result to give');
    }
    expect(results).toHaveTextContent('no known cost');

    // Counterparties: the answer's, in order, each this collection's view of that wallet.
    const parties = within(screen.getByRole('region', { name: 'Main counterparties' }));
    const links = parties.getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(
      answer.counterparties.map((party) => shortenHex(party.address)),
    );
    // Each link's name holds what it shows, so a voice user can say it.
    for (const link of links) {
      expect(link).toHaveAccessibleName(expect.stringContaining(link.textContent));
    }
    expect(links[0]).toHaveAttribute(
      'href',
      `/addresses/${answer.counterparties[0]!.address}?collection=${contract.address}`,
    );

    // Tokens held now, each a link to its page.
    const held = within(screen.getByRole('region', { name: 'Tokens held now' }));
    const tokens = held.queryAllByRole('link');
    expect(tokens).toHaveLength(answer.heldTokens.length);
    if (tokens[0]) {
      expect(tokens[0]).toHaveAttribute(
        'href',
        `/contracts/${contract.address}/tokens/${answer.heldTokens[0]!.tokenId}`,
      );
    }

    // The events in the collection below it; a counterparty opens its own view.
    expect(
      await screen.findByRole('heading', { level: 2, name: /^Events in / }),
    ).toBeInTheDocument();
    await userEvent.click(links[0]!);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(
        `/addresses/${answer.counterparties[0]!.address}`,
      ),
    );
    expect(router.state.location.search).toBe(`?collection=${contract.address}`);
    await waitFor(() =>
      expect(server.requests).toContain(
        `/api/wallets/${answer.counterparties[0]!.address}/collections/${contract.address}`,
      ),
    );
  });

  it('is reached from the wallet’s collection card', async () => {
    const server = await install({ indexed: [contract.address] });
    const wallet = await busyWallet(server);
    const { router } = renderAt(`/addresses/${wallet}`);
    const cards = await screen.findByRole('list', { name: 'Collections' });
    const card = within(cards).getAllByRole('link', {
      name: /^In this collection: .*holdings over time/,
    })[0]!;
    // Its name holds what it shows, so a voice user can say it.
    expect(card).toHaveAccessibleName(
      expect.stringContaining(card.textContent.replace(/\s*›$/, '')),
    );
    await userEvent.click(card);
    await waitFor(() => expect(router.state.location.search).toMatch(/^\?collection=0x/));
    expect(
      await screen.findByRole('slider', { name: /^Tokens held, one value per/ }),
    ).toBeInTheDocument();
  });

  it('says so when the wallet never touched the collection', async () => {
    await install({ indexed: [contract.address] });
    renderAt(`/addresses/0x${'1'.repeat(64)}?collection=${contract.address}`);
    expect(await screen.findByText('No activity in this collection')).toBeInTheDocument();
  });
});
