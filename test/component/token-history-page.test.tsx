import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Coverage, EventRow, TokenPageAnswer } from '../../src/lib/answers';
import { custodyChain } from '../../src/lib/custody';
import { CURRENCIES } from '../../src/lib/price';
import { tokenIdToHex } from '../../src/lib/token-id';
import { errorResponse } from '../../src/server/proxy/error-response';
import { busiestContract, dataRows, installSampleApi, renderAt, statusText } from './harness';
import { expectWalletAndFilter } from './address-links';
import { installFakeEventSource } from './fake-event-source';

/*
 * The token page over the query API. The harness's proxy has no event index (no
 * database), so `/api/collections/…/tokens/…` is answered here with answers in the
 * server's shape (src/server/api/token-api.ts, src/server/index/token.ts, event-rows.ts);
 * the contract list (names, images) comes from the real proxy over the sample service.
 */
afterEach(() => vi.restoreAllMocks());

const A = (digits: string) => `0x${digits.padStart(64, '0')}`;
const ZERO = A('0');
const MINTER = A('a11ce');
const BUYER = A('b0b');
const FLIPPER = A('c0ffee');
const ETH = CURRENCIES[0]!.address;
const TOKEN = '1234567890123456789';
const DAY = 86_400;
const T0 = 1_700_000_000;

function row(
  index: number,
  kind: EventRow['kind'],
  from: string,
  to: string,
  timestamp: number,
  sale?: { price: string },
): EventRow {
  return {
    id: String(100 + index),
    key: String(100 + index),
    eventId: `0x${(700 + index).toString(16)}_1`,
    kind,
    label: kind === 'sale' ? 'sale' : 'transfer',
    contractAddress: busiestContract().address,
    from,
    to,
    tokenId: TOKEN,
    tokenIdHex: tokenIdToHex(BigInt(TOKEN)),
    timestamp,
    transactionHash: A((0xfeed00 + index).toString(16)),
    records: sale ? 'transfer+sale' : 'transfer',
    ...(sale && { price: sale.price, currencyAddress: ETH, marketplaceName: 'Element' }),
  };
}

const coverage = (extra: Partial<Coverage> = {}): Coverage => ({
  complete: true,
  indexedBack: T0 - 100 * DAY,
  newest: T0 + 30 * DAY,
  records: 4_000,
  headReadAt: '2025-01-01T00:00:00.000Z',
  indexing: null,
  upstream: null,
  fault: null,
  verifiedAt: null,
  removed: 0,
  catchingUp: null,
  replicaLagSeconds: null,
  faults: [],
  statement: 'The whole history is indexed.',
  ...extra,
});

/** A minted token sold twice (the second time an hour after it was bought), maybe burned. */
function answerOf(
  options: { burned?: boolean; events?: EventRow[]; extra?: Partial<TokenPageAnswer> } = {},
): TokenPageAnswer {
  const events = options.events ?? [
    row(0, 'mint', ZERO, MINTER, T0),
    row(1, 'sale', MINTER, FLIPPER, T0 + 10 * DAY, { price: '1000000000000000000' }),
    row(2, 'sale', FLIPPER, BUYER, T0 + 10 * DAY + 3_600, { price: '1500000000000000000' }),
    ...(options.burned ? [row(3, 'burn', BUYER, ZERO, T0 + 20 * DAY)] : []),
  ];
  const last = events.at(-1);
  const burned = options.burned ?? false;
  return {
    address: busiestContract().address,
    tokenId: TOKEN,
    owner: burned || !last ? null : last.to,
    since: last ? last.timestamp : null,
    minted: events.some((event) => event.kind === 'mint'),
    burned,
    events,
    custody: custodyChain(events),
    tokenList: { read: true },
    coverage: coverage(),
    ...options.extra,
  };
}

/** Answers the token route in the index's stead; `fail` answers it with an error first. */
function installTokenApi(
  answer: TokenPageAnswer,
  fail: { times: number; error?: Response } = { times: 0 },
) {
  const api = installSampleApi({ profile: 'documented' });
  let failures = fail.times;
  api.intercept = (path) => {
    if (!path.startsWith(`/api/collections/${answer.address}/tokens/`)) return null;
    if (failures > 0) {
      failures -= 1;
      return (
        fail.error?.clone() ??
        errorResponse({
          kind: 'internal',
          status: 500,
          message: 'The dashboard’s server failed to answer this request.',
        })
      );
    }
    return Response.json(answer);
  };
  return api;
}

const tokenRequests = (requests: string[]) =>
  requests.filter((path) => path.includes('/tokens/') || path.startsWith('/api/v1/events'));

const custodySteps = () =>
  within(screen.getByRole('region', { name: 'Provenance' })).getAllByRole('listitem');

describe('token history page', () => {
  it('shows the whole history oldest first, one row per sale with its price, and the custody chain', async () => {
    const answer = answerOf();
    const api = installTokenApi(answer);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    const table = await screen.findByRole('table', {
      name: `History of token ${TOKEN}, oldest first`,
    });
    expect(statusText()).toContain('all 3 events loaded');
    expect(screen.getByText(/the token’s whole history, read from its own list/)).toBeVisible();
    const rows = dataRows();
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'Mint',
      'Sale',
      'Sale',
    ]);
    expect(rows[1]).toHaveTextContent('1 ETH');
    expect(rows[2]).toHaveTextContent('1.5 ETH');
    expect(within(table).queryByText('Token')).toBeNull();
    // One query, no walk of the service's raw list.
    expect(tokenRequests(api.requests)).toEqual([
      `/api/collections/${answer.address}/tokens/${TOKEN}`,
    ]);

    // The summary: minted to, held now by, three owners, one event per change of hands.
    expect(screen.getByText('Distinct owners').nextSibling).toHaveTextContent('3');
    expect(screen.getByText('Events').nextSibling).toHaveTextContent('3 (2 sales)');
    expect(screen.getByText('Current holder').nextSibling).toHaveTextContent('0xb0b');

    const steps = custodySteps();
    expect(steps).toHaveLength(4);
    expect(steps[0]).toHaveTextContent(
      /^Minted.*Minted to 0xa11ce.*held for 10 days, then sold for 1 ETH/,
    );
    // Bought for 1 ETH, sold an hour later for 1.5 ETH: a flip, +0.5 ETH.
    expect(steps[1]).toHaveTextContent(/Bought.*Flip.*Bought by .* for 1 ETH/);
    expect(steps[1]).toHaveTextContent('held for 1 hour, then sold for 1.5 ETH · result +0.5 ETH');
    expect(steps[2]).toHaveTextContent(/Bought by .* for 1\.5 ETH/);
    expect(steps[2]).not.toHaveTextContent('held for');
    expect(steps[3]).toHaveTextContent('Held now by');

    // The header copies both ids; every address opens its wallet, its filter beside it.
    expect(screen.getByRole('button', { name: `Copy token id ${TOKEN}` })).toBeInTheDocument();
    expect(
      screen.getByRole('button', {
        name: `Copy token id in hexadecimal ${tokenIdToHex(BigInt(TOKEN))}`,
      }),
    ).toBeInTheDocument();
    expect(
      expectWalletAndFilter(answer.address, /^Show the collection’s events with 0x/),
    ).toBeGreaterThan(6);
  });

  it('says it is reading the history while the answer is on its way', async () => {
    const answer = answerOf();
    const api = installSampleApi({ profile: 'documented' });
    let release: () => void = () => {};
    const held = new Promise<Response>((resolve) => {
      release = () => resolve(Response.json(answer));
    });
    // The harness awaits what `intercept` returns: a response held until the test lets it go.
    api.intercept = (path) => (path.includes('/tokens/') ? (held as unknown as Response) : null);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    expect(await screen.findByText('Reading the token’s history…')).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.getByLabelText('Loading')).toHaveAttribute('aria-busy', 'true');
    release();
    await screen.findByRole('table');
    expect(screen.queryByText('Reading the token’s history…')).toBeNull();
  });

  it('shows the same history for a hex id and canonicalises the URL to decimal', async () => {
    const answer = answerOf();
    const api = installTokenApi(answer);
    const { router } = renderAt(
      `/contracts/${answer.address}/tokens/${tokenIdToHex(BigInt(TOKEN)).toUpperCase().replace('0X', '0x')}`,
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${answer.address}/tokens/${TOKEN}`),
    );
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(3);
    expect(tokenRequests(api.requests)).toEqual([
      `/api/collections/${answer.address}/tokens/${TOKEN}`,
    ]);
  });

  it('tells a burned token: no holder, the burn last in its chain', async () => {
    const answer = answerOf({ burned: true });
    installTokenApi(answer);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    await screen.findByRole('table');
    expect(dataRows().at(-1)).toHaveTextContent('Burn');
    expect(screen.getByText('Status').nextSibling).toHaveTextContent('Burned');
    expect(screen.queryByText('Current holder')).toBeNull();
    const steps = custodySteps();
    expect(steps).toHaveLength(4);
    expect(steps[2]).toHaveTextContent('held for 9 days, then burned');
    expect(steps.at(-1)).toHaveTextContent('Burned: the token no longer exists.');
  });

  it('says the history comes from stored data, and why, when the token’s own list could not be read', async () => {
    const failure =
      'The token’s own list could not be read (the service refused our key); this history comes from stored data.';
    const answer = answerOf({
      extra: {
        tokenList: { read: false, failure },
        coverage: coverage({
          complete: false,
          statement:
            'Indexed back to 2023-08-05; older events are not counted yet. The Token Events Service could not be asked (key refused); this answer comes from stored data.',
        }),
      },
    });
    installTokenApi(answer);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    await screen.findByRole('table');
    const statement = screen.getByText('This history comes from stored data').parentElement!;
    expect(statement).toHaveAttribute('role', 'status');
    expect(statement).toHaveTextContent(failure);
    // How complete what is stored is: the collection's coverage, in the server's words.
    expect(statement).toHaveTextContent('3 events stored. Indexed back to 2023-08-05');
    expect(statusText()).not.toContain('all 3 events loaded');
    expect(custodySteps().at(-1)).toHaveTextContent('(from stored data)');
  });

  it('says plainly when a token has no history, and that the collection is fully indexed', async () => {
    const answer = answerOf({ events: [] });
    installTokenApi(answer);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    const empty = (await screen.findByText('No history for this token')).parentElement!;
    expect(empty).toHaveTextContent(`lists no event of token ${TOKEN} in this collection`);
    expect(empty).toHaveTextContent('The collection is fully indexed');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says when a token has no history in a collection not fully indexed', async () => {
    const answer = answerOf({
      events: [],
      extra: {
        coverage: coverage({
          complete: false,
          statement:
            'Indexed back to 2024-03-01; older events are not counted yet. The indexer is reading its history now.',
        }),
      },
    });
    installTokenApi(answer);
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    const empty = (await screen.findByText('No history for this token')).parentElement!;
    expect(empty).toHaveTextContent(
      'The collection is not fully indexed: Indexed back to 2024-03-01; older events are not counted yet.',
    );
  });

  it('says a failure with Retry, and shows the history once it answers', async () => {
    const answer = answerOf();
    installTokenApi(answer, { times: 1 });
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The dashboard’s server failed');
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table');
    expect(dataRows()).toHaveLength(3);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a 503 of the database as our side’s failure, not the service’s', async () => {
    const answer = answerOf();
    const error = errorResponse({
      kind: 'database',
      status: 503,
      message: 'The dashboard’s database is not answering.',
      retryAfterSeconds: 0,
    });
    // The first try and the retries the database gets by itself.
    installTokenApi(answer, { times: 4, error });
    renderAt(`/contracts/${answer.address}/tokens/${TOKEN}`);
    const alert = await screen.findByRole('alert', {}, { timeout: 5_000 });
    expect(alert).toHaveTextContent('The dashboard’s database is down');
    expect(alert).toHaveTextContent('The dashboard’s database is not answering.');
    expect(alert).not.toHaveTextContent(/Token Events Service failed/);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table');
  });

  it('explains a malformed token id', async () => {
    installSampleApi();
    renderAt(`/contracts/${busiestContract().address}/tokens/12abc`);
    expect(
      await screen.findByRole('heading', { name: 'This is not a token id' }),
    ).toBeInTheDocument();
  });
});

describe('lookup box', () => {
  it('goes to a contract or a token, and explains invalid input inline', async () => {
    const answer = answerOf();
    const contract = busiestContract();
    installTokenApi(answer);
    const { router } = renderAt('/contracts');
    const input = await screen.findByRole('textbox', { name: /go to a contract/i });
    await userEvent.type(input, '0xnothex{Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent(
      'An address is 0x followed by up to 64 hexadecimal digits.',
    );
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/contracts');

    await userEvent.clear(input);
    await userEvent.type(input, `${contract.address} ${TOKEN}{Enter}`);
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}/tokens/${TOKEN}`),
    );
    await screen.findByRole('table');

    await userEvent.type(
      screen.getByRole('textbox', { name: /go to a contract/i }),
      `${contract.address.toUpperCase().replace('0X', '0x')}{Enter}`,
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/contracts/${contract.address}`),
    );
  });
});

describe('token history page, live', () => {
  const live = installFakeEventSource();

  it('shows a new change of hands from its stream marked new, and its holder and custody follow', async () => {
    const before = answerOf();
    let answer = before;
    const api = installSampleApi({ profile: 'documented' });
    api.intercept = (path) =>
      path.startsWith(`/api/collections/${before.address}/tokens/`) ? Response.json(answer) : null;
    renderAt(`/contracts/${before.address}/tokens/${TOKEN}`);
    await screen.findByRole('table', { name: `History of token ${TOKEN}, oldest first` });
    const stream = await waitFor(() => {
      const found = live.stream(`/api/live/collections/${before.address}/tokens/${TOKEN}`);
      expect(found).toBeDefined();
      return found!;
    });
    expect(screen.queryByText('New')).toBeNull();

    // The server has the row when it pushes it: its answer holds it too.
    const moved = row(3, 'transfer', BUYER, FLIPPER, T0 + 40 * DAY);
    answer = answerOf({ events: [...before.events, moved] });
    stream.send('change', moved);
    await waitFor(() => expect(dataRows()).toHaveLength(4), { timeout: 10_000 });
    const rows = dataRows();
    expect(rows[3]).toHaveTextContent('New');
    expect(rows.slice(0, 3).some((each) => each.textContent?.includes('New'))).toBe(false);
    expect(screen.getByText('Current holder').nextSibling).toHaveTextContent('0xc0ffee');
    expect(custodySteps()).toHaveLength(5);
    await waitFor(() => expect(document.body).toHaveTextContent('1 new event'));
  });
});
