import { request, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { CHANGES_CHANNEL } from '../../src/server/index/change-notice';
import {
  createArrivals,
  createSampleService,
  generateDataset,
  TIMELINE,
} from '../../src/server/sample-service';
import { getViaFetch, type Upstream } from '../../src/server/upstream/service-client';
import { indexedProxy } from '../support/indexed-proxy';
import { createDatabase, databaseUrl, startPostgres } from '../support/postgres-server';
import type { BenchContext } from './context';
import { ms, percentile, round } from './lib/stats';

type Context = Pick<BenchContext, 'report' | 'deadline' | 'log'>;

const BENCH = 'live';
/** The head interval here (HEAD_READ_SECONDS is 5 by default): the measure is per interval. */
const HEAD_MS = 1_000;
/** Intervals counted for each number of streams. */
const INTERVALS = 10;
const MANY = 1_000;
const ROUNDS = 20;
const BUDGET_MS = 2_000;

/**
 * live. Live pages' server side, over HTTP as a page's EventSource reads it: the sample
 * service in this process, the proxy as the server makes it (its record log, index and
 * live hub) on a PostgreSQL of the bench's own, served by node:http on 127.0.0.1. Heads
 * asked of the service for one collection in 10 head intervals with 1 open stream, then
 * with 1,000; then, the 1,000 open, the time from the commit of a new change of hands (its
 * NOTIFY heard by a session of the bench's) to its arrival at the first stream and at the
 * last of them. The arrival itself comes from the sample's next live arrival, made at once.
 */
export async function livePages({ report, deadline, log }: Context): Promise<void> {
  const load = loadavg()[0] ?? 0;
  log(`live: heads with 1 and ${MANY} streams, then ${ROUNDS} arrivals (load ${round(load)})`);
  const cleanups: (() => Promise<unknown>)[] = [];
  const postgres = await startPostgres();
  cleanups.push(() => postgres.stop());
  try {
    const url = databaseUrl(postgres.url, await createDatabase(postgres.url, 'bench'));
    const dataset = generateDataset({
      seed: 1,
      contracts: 3,
      events: 20_000,
      anchor: TIMELINE.end,
    });
    const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
    const contract = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
    const arrivals = createArrivals(dataset);
    // Each read of the collection's head asked of the service (a list's first page).
    let heads = 0;
    const upstream: Upstream = {
      source: 'sample',
      baseUrl: 'http://sample.bench',
      apiKey: 'k',
      description: 'sample',
      get: getViaFetch((request) => {
        const { pathname, searchParams } = new URL(request.url);
        if (pathname === `/v1/events/${contract.address}` && !searchParams.has('cursor')) {
          heads += 1;
        }
        return service.fetch(request);
      }),
    };
    const cleanupsOfProxy: (() => Promise<unknown>)[] = [];
    cleanups.push(async () => {
      for (const cleanup of cleanupsOfProxy.reverse()) await cleanup();
    });
    const { proxy } = await indexedProxy({
      url,
      upstream,
      cleanups: cleanupsOfProxy,
      settings: { headIntervalMs: HEAD_MS },
      proxy: { liveStreamsPerClient: 0 },
    });
    await proxy.indexer.whole(contract.address).done;
    const server = serve({ fetch: proxy.app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    cleanupsOfProxy.push(() => new Promise((resolve) => server.close(resolve)));
    const { port } = server.address() as AddressInfo;

    const streams: Stream[] = [];
    cleanups.push(async () => streams.forEach((stream) => stream.close()));
    const openStreams = async (count: number) => {
      const opened = Array.from({ length: count }, () =>
        openStream(port, `/api/live/collections/${contract.address}`),
      );
      streams.push(...opened);
      await Promise.all(opened.map((stream) => stream.ready));
    };
    /** Heads asked in INTERVALS head intervals, per interval. */
    const headsPerInterval = async () => {
      const before = heads;
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, HEAD_MS * INTERVALS));
      return (heads - before) / ((performance.now() - started) / HEAD_MS);
    };

    await openStreams(1);
    const one = await headsPerInterval();
    await openStreams(MANY - 1);
    const many = await headsPerInterval();
    report.budget(
      BENCH,
      `head reads of the collection per head interval, 1 stream / ${MANY} streams`,
      `${round(one)} / ${round(many)}`,
      `0.85–1.12 each, within 0.1 of each other`,
      [one, many].every((value) => value >= 0.85 && value <= 1.12) && Math.abs(many - one) <= 0.1,
    );

    const listener = new pg.Client({ connectionString: url });
    await listener.connect();
    cleanups.push(() => listener.end());
    await listener.query(`LISTEN ${CHANGES_CHANNEL}`);
    let committedAt = 0;
    listener.on('notification', (message) => {
      if (message.payload === contract.address) committedAt = performance.now();
    });
    const toFirst: number[] = [];
    const toLast: number[] = [];
    for (let round = 0; round < ROUNDS && !deadline.passed(); round += 1) {
      committedAt = 0;
      const before = streams.map((stream) => stream.rows);
      arrivals.arrive(contract);
      const times = await Promise.all(
        streams.map((stream, index) => stream.rowAfter(before[index]!)),
      );
      toFirst.push(Math.min(...times) - committedAt);
      toLast.push(Math.max(...times) - committedAt);
    }
    const worst = Math.max(...toLast);
    report.budget(
      BENCH,
      `commit to arrival at the first of ${MANY} streams (${toFirst.length}): p50 / p95`,
      `${ms(percentile(toFirst, 50))} / ${ms(percentile(toFirst, 95))}`,
      `≤ ${BUDGET_MS / 1000} s`,
      percentile(toFirst, 95) <= BUDGET_MS,
    );
    report.budget(
      BENCH,
      `commit to arrival at the last of ${MANY} streams: p50 / p95 / max`,
      `${ms(percentile(toLast, 50))} / ${ms(percentile(toLast, 95))} / ${ms(worst)}`,
      `≤ ${BUDGET_MS / 1000} s`,
      worst <= BUDGET_MS,
    );
    const doubled = streams.filter((stream) => stream.rows !== toLast.length).length;
    report.budget(
      BENCH,
      `streams that got other than ${toLast.length} rows`,
      String(doubled),
      '0',
      doubled === 0,
    );
    report.info(
      BENCH,
      'load average (1 min) before / after',
      `${round(load)} / ${round(loadavg()[0] ?? 0)}`,
    );
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

interface Stream {
  /** The stream is open (its `ready` came). */
  ready: Promise<void>;
  /** `change` events received. */
  rows: number;
  /** When (performance.now()) the stream holds more than `count` rows. */
  rowAfter(count: number): Promise<number>;
  close(): void;
}

/** A Server-Sent Events stream read as the browser's EventSource reads it. */
function openStream(port: number, path: string): Stream {
  let resolveReady: () => void = () => {};
  let rejectReady: (error: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  const waiting: { count: number; resolve: (at: number) => void }[] = [];
  const stream: Stream = {
    ready,
    rows: 0,
    rowAfter: (count) =>
      stream.rows > count
        ? Promise.resolve(performance.now())
        : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () => req.destroy(),
  };
  const req: ClientRequest = request(
    { host: '127.0.0.1', port, path, agent: false, headers: { accept: 'text/event-stream' } },
    (response) => {
      if (response.statusCode !== 200) {
        rejectReady(new Error(`${path}: ${response.statusCode}`));
        return;
      }
      response.setEncoding('utf8');
      let text = '';
      response.on('data', (chunk: string) => {
        text += chunk;
        let end: number;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const event = /^event: (\w+)$/m.exec(block)?.[1];
          if (event === 'ready') resolveReady();
          if (event !== 'change') continue;
          stream.rows += 1;
          const at = performance.now();
          for (const wait of waiting.splice(0)) {
            if (stream.rows > wait.count) wait.resolve(at);
            else waiting.push(wait);
          }
        }
      });
    },
  );
  req.on('error', (error) => rejectReady(error));
  req.end();
  return stream;
}
