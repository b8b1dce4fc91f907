import { act, render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { App } from '../../src/app/app';
import { createQueryClient } from '../../src/app/query-client';
import { routes } from '../../src/app/router';
import {
  createSampleService,
  generateDataset,
  type Dataset,
  type FaultPlan,
  type Profile,
} from '../../src/server/sample-service';

const datasets = new Map<number, Dataset>();

/** A small dataset (8 contracts, 3,000 events), generated once per seed for the whole run. */
export function smallDataset(seed = 7): Dataset {
  let dataset = datasets.get(seed);
  if (!dataset) {
    dataset = generateDataset({ seed, contracts: 8, events: 3000 });
    datasets.set(seed, dataset);
  }
  return dataset;
}

/** The contracts of a dataset, the one with the most events first. */
export function byEventCount(dataset: Dataset = smallDataset()) {
  return [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
}

/** The contract with the most events. */
export const busiestContract = (dataset: Dataset = smallDataset()) => byEventCount(dataset)[0]!;

/**
 * A server without an event index, over the sample service's data: `/api/meta` and the
 * ranking of a server with nothing indexed yet; any other answer is the test's own
 * (`intercept`). Pages over the real server code and a database: `indexed-api.ts`.
 */
export function installSampleApi(
  options: { profile?: Profile; faults?: FaultPlan; seed?: number } = {},
) {
  const service = createSampleService({
    apiKey: 'component-test-key',
    profile: options.profile ?? 'deployed',
    dataset: smallDataset(options.seed),
    faults: options.faults,
  });
  const requests: string[] = [];
  const api = {
    service,
    requests,
    dataset: service.dataset,
    /** Answers a request in the proxy's stead when it returns a response (e.g. our 410). */
    intercept: null as null | ((path: string) => Response | null),
  };
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const path = url.pathname + url.search;
    requests.push(path);
    const intercepted = api.intercept?.(path);
    if (intercepted) return intercepted;
    if (url.pathname === '/api/collections')
      return Response.json(unindexedRanking(service.dataset));
    if (url.pathname === '/api/meta') {
      return Response.json({ source: 'sample', description: 'embedded sample service (test)' });
    }
    return Response.json(
      { error: { kind: 'not_found', status: 404, message: 'No such API route.' } },
      { status: 404 },
    );
  });
  return api;
}

/**
 * The collections page's ranking as a server with nothing indexed yet answers it: the
 * proxy here has no event index (no database), so the page that opens the app has its
 * rows for the tests that start there. The ranking's own tests answer it themselves.
 */
function unindexedRanking(dataset: Dataset) {
  return {
    window: '7d',
    sort: '-events',
    collections: dataset.contracts.map((contract) => ({
      address: contract.address,
      name: contract.name,
      symbol: contract.symbol || null,
      image: contract.image || null,
      type: contract.type,
      events: 0,
      sales: 0,
      volume: [],
      holders: 0,
      lastActivity: null,
      complete: false,
      indexedBack: null,
    })),
    next: null,
  };
}

export function renderAt(url: string, queryClient = createQueryClient()) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const view = render(<App queryClient={queryClient} router={router} />);
  return { ...view, router, queryClient };
}

/** Every live region's text, joined: where the page says what it has loaded. */
export const statusText = () =>
  screen
    .getAllByRole('status')
    .map((node) => node.textContent)
    .join(' | ');

/** The table rows that hold data (no header, no virtualisation spacers). */
export const dataRows = () =>
  screen
    .getAllByRole('row')
    .filter((row) => row.querySelector('td') && row.getAttribute('aria-hidden') !== 'true');

// Taken before any test fakes the timers: real turns of the event loop.
const realSetImmediate = setImmediate;
const realTurn = () => new Promise<void>((resolve) => realSetImmediate(resolve));

/**
 * What a test fakes with `vi.useFakeTimers(FAKE_TIMERS)`: timers, and the clock they are
 * measured against (the proxy's upstream gate waits until a time); promises, I/O and
 * `setImmediate` stay real.
 */
export const FAKE_TIMERS = {
  toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
} satisfies Parameters<typeof vi.useFakeTimers>[0];

/**
 * Under fake timers (FAKE_TIMERS): waits until `assertion` passes, letting the app's real
 * work run (requests through the in-process proxy, renders) for a number of turns of the
 * event loop, then moving the clock on by `stepMs`; so waits of seconds (retry delays,
 * Retry-After, the proxy's timeout) pass at once. Pacing by turns rather than by real
 * milliseconds keeps it independent of the machine's load: a request answered in-process
 * takes a handful of turns, far fewer than the 20 steps the proxy's 1 s timeout needs.
 * The assertion is tried again only when the page has changed (a failing query of the
 * DOM is costly).
 */
export async function advanceUntil(
  assertion: () => void,
  { stepMs = 50, turnsPerStep = 10, maxMs = 20_000 } = {},
): Promise<void> {
  let changed = true;
  let failure: unknown;
  const observer = new MutationObserver(() => (changed = true));
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
  });
  let advanced = 0;
  const started = performance.now();
  try {
    for (;;) {
      await act(async () => {
        for (let turn = 0; turn < turnsPerStep; turn++) await realTurn();
      });
      if (changed) {
        changed = false;
        try {
          assertion();
          return;
        } catch (error) {
          failure = error;
        }
      }
      if (advanced >= maxMs || performance.now() - started > 20_000) throw failure;
      // Nothing due on the clock: the app is waiting on real work (a page's code loading).
      if (vi.getTimerCount() === 0) continue;
      act(() => {
        vi.advanceTimersByTime(stepMs);
      });
      advanced += stepMs;
    }
  } finally {
    observer.disconnect();
  }
}

/** The files the page downloads (the export's CSV and JSON), as the blobs it made. */
export function captureDownloads(): Blob[] {
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return 'blob:test';
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
  return blobs;
}

/**
 * Makes `api` answer the first `times` requests that `matches` takes with the dashboard
 * server's own failure (a 500 in the error body), then lets every request through.
 */
export function failFirst(
  api: { intercept: null | ((path: string) => Response | null) },
  matches: (path: string) => boolean,
  times = 1,
): void {
  let failures = times;
  api.intercept = (path) => {
    if (failures === 0 || !matches(path)) return null;
    failures -= 1;
    return Response.json(
      { error: { kind: 'internal', message: 'The dashboard’s server failed to answer.' } },
      { status: 500 },
    );
  };
}
