import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FAILURE_MESSAGES } from '../../../src/server/database/database-error';
import { decodeChunk, DamagedChunkError } from '../../../src/server/store/chunk-codec';
import { createProxy } from '../../../src/server/proxy/app';
import { createSampleService, generateDataset } from '../../../src/server/sample-service';
import { storeSecret } from '../../../src/server/store/event-store';
import { openPostgresEngine } from '../../../src/server/store/postgres-engine';
import { usePostgresDatabases } from '../../support/postgres-databases';
import { sampleUpstream } from '../../support/sample-upstream';

/**
 * Stored bytes damaged after they were written (a disk, a hand-made UPDATE): a page that
 * needs them is answered 503 naming the database, never 200 with invalid JSON or with
 * records other than the service's.
 */
const dataset = generateDataset({ seed: 7, contracts: 3, events: 4_000 });
const busiest = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount)[0]!;
const eventsPath = `/api/v1/events/${busiest.address}`;
const LIMIT = 100;

const databases = usePostgresDatabases();
const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

async function proxyOn(url: string, service: ReturnType<typeof createSampleService>) {
  const engine = await openPostgresEngine({ connectionString: url });
  opened.push(() => engine.close());
  const { app } = createProxy({
    upstream: sampleUpstream(service),
    // Small chunks, so a walk crosses several; the head is not read again meanwhile.
    store: {
      engine,
      secret: await storeSecret(engine),
      settings: { headIntervalMs: 3_600_000, chunkBytes: 16 * 1024 },
    },
  });
  return app;
}

interface Answer {
  status: number;
  text: string;
}

/** Walks the list in pages of LIMIT until the end or the first answer that is not a page. */
async function walk(app: { request: (path: string) => Response | Promise<Response> }) {
  const answers: Answer[] = [];
  let cursor: string | null = null;
  for (;;) {
    const path: string = `${eventsPath}?limit=${LIMIT}${cursor ? `&cursor=${cursor}` : ''}`;
    const response = await app.request(path);
    const text = await response.text();
    answers.push({ status: response.status, text });
    if (response.status !== 200) return answers;
    cursor = (JSON.parse(text) as { cursor: string | null }).cursor;
    if (!cursor) return answers;
  }
}

const recordsOf = (answer: Answer) =>
  (JSON.parse(answer.text) as { result: unknown[] }).result.map((record) => JSON.stringify(record));

type Damage = (data: Buffer) => Buffer;

const damages: [string, Damage, { keepChecksum: boolean }][] = [
  ['truncated', (data) => data.subarray(0, Math.floor(data.length / 2)), { keepChecksum: true }],
  ['random bytes', (data) => randomBytes(data.length), { keepChecksum: true }],
  ['a few random bytes', () => randomBytes(7), { keepChecksum: true }],
  [
    'a digit changed inside a record',
    (data) => {
      const copy = Buffer.from(data);
      // A digit of a block number or a token id, well inside the records' text.
      const at = copy.indexOf('"block_number":"', Math.floor(copy.length / 2)) + 16;
      copy[at] = copy[at] === 0x31 ? 0x32 : 0x31;
      return copy;
    },
    { keepChecksum: true },
  ],
  [
    'a digit of a record’s time changed',
    (data) => {
      const copy = Buffer.from(data);
      const at = copy.indexOf('"timestamp":"', Math.floor(copy.length / 3)) + 13;
      copy[at + 1] = copy[at + 1] === 0x39 ? 0x38 : 0x39;
      return copy;
    },
    { keepChecksum: true },
  ],
  // Chunks written before checksums were kept: the structure is checked still.
  [
    'truncated, written before checksums',
    (data) => data.subarray(0, data.length - 10),
    { keepChecksum: false },
  ],
  [
    'an offset pointing past the body, written before checksums',
    (data) => {
      const copy = Buffer.from(data);
      copy.writeUInt32LE(0x7fff_ffff, 4);
      return copy;
    },
    { keepChecksum: false },
  ],
];

describe('damaged stored chunks', () => {
  it('are never served as a page: every answer is valid JSON, the damaged page a 503', async () => {
    const { url, drop } = await databases.database();
    opened.push(drop);
    const service = createSampleService({ apiKey: 'k', profile: 'deployed', dataset });
    const healthy = await walk(await proxyOn(url, service));
    expect(healthy.every((answer) => answer.status === 200)).toBe(true);
    const original = healthy.flatMap(recordsOf);
    expect(original.length).toBeGreaterThan(1_000);

    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    opened.push(() => admin.end());
    const { rows } = await admin.query<{ list: string; generation: string; first: string }>(
      `SELECT list, generation, first FROM store_chunks WHERE list = $1 ORDER BY first`,
      [`/v1/events/${busiest.address}`],
    );
    expect(rows.length).toBeGreaterThan(3);
    // A chunk in the middle, so the pages before it are still served.
    const target = rows[Math.floor(rows.length / 2)]!;
    const where = 'list = $1 AND generation = $2 AND first = $3';
    const key = [target.list, target.generation, target.first];
    const saved = await admin.query<{ data: Buffer; checksum: number | null }>(
      `SELECT data, checksum FROM store_chunks WHERE ${where}`,
      key,
    );
    const { data, checksum } = saved.rows[0]!;
    expect(checksum).not.toBeNull();

    for (const [name, damage, { keepChecksum }] of damages) {
      await admin.query(`UPDATE store_chunks SET data = $4, checksum = $5 WHERE ${where}`, [
        ...key,
        damage(data),
        keepChecksum ? checksum : null,
      ]);
      // A new server: nothing of the healthy walk in its memory.
      const answers = await walk(await proxyOn(url, service));
      for (const answer of answers) expect(() => JSON.parse(answer.text), name).not.toThrow();
      const last = answers.at(-1)!;
      expect(last.status, name).toBe(503);
      expect(JSON.parse(last.text), name).toMatchObject({
        error: { kind: 'database', message: DATABASE_FAILURE_MESSAGES.damaged },
      });
      // Every page served before it holds exactly the service's records (a page reads
      // up to 1 MB of chunks ahead, so those near the damage fail too).
      const served = answers.slice(0, -1).flatMap(recordsOf);
      expect(served, name).toEqual(original.slice(0, served.length));
      await admin.query(`UPDATE store_chunks SET data = $4, checksum = $5 WHERE ${where}`, [
        ...key,
        data,
        checksum,
      ]);
    }
    // Put back, the chunk serves again.
    const again = await walk(await proxyOn(url, service));
    expect(again.flatMap(recordsOf)).toEqual(original);
  }, 60_000);
});

describe('decoding a chunk', () => {
  it('refuses bytes that do not hold together, with SQLSTATE XX001', () => {
    const tooShort = () => decodeChunk(0, Buffer.from([1, 0]), null, '/v1/x');
    expect(tooShort).toThrow(DamagedChunkError);
    try {
      tooShort();
    } catch (error) {
      expect((error as { code: string }).code).toBe('XX001');
    }
  });
});
