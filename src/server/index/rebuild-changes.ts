import type pg from 'pg';
import { normaliseEvent } from '../../lib/normalise';
import type { TokenEvent } from '../../lib/token-event';
import { changeRows, type ChangeRow } from './change-row';
import { CHANGE_COLUMNS, CHANGE_TUPLES, changeTuples, insertChanges } from './ingest';

/**
 * A contract's change rows (`idx_changes`) made again from the record log: its lists'
 * records that the service still lists, read in the order they arrived (`seq`), become
 * change rows in Node as ingest makes them (the normaliser, change-row.ts, twins joined
 * within a batch), and are put aside in a temporary table. Then three statements over
 * the whole contract: a stored row no record makes any more is deleted; one that comes
 * out different is changed (one that does not is left as it is, its number too, so the
 * event pages' cursors stay good); a new one is added, numbered in arrival order as
 * ingest numbers it (a change's row is made by the first of its records to arrive, which
 * decides between two changes of one token at one time: LATEST_FIRST). Set-based, the
 * stored rows are read in the table's order rather than looked up one by one. A record
 * whose row an earlier batch made (a twin, a record also in a token's list) is applied
 * last by ingest's own upsert, as a later page would be.
 */

/** Records read and parsed at a time: batches small enough to die young in Node's heap. */
const RECORDS_BATCH = 2_000;

export interface ListRow {
  id: number;
  path: string;
  complete: boolean;
}

export interface ChangesRead {
  /** Records read (those the service no longer lists are not). */
  records: number;
  /** Records the normaliser refused. */
  skipped: number;
  /**
   * Records of the contract's lists that name another contract: ingest indexes them under
   * that one, which a rebuild of it cannot see without reading every list; left out.
   */
  foreign: number;
  /** Records of the contract's own list; its events' oldest and newest time. */
  ownRecords: number;
  oldest: number | null;
  /** The newest time of every list's events (a token's list moves it too). */
  newest: number | null;
  /**
   * Milliseconds of Node's work (parsing and normalising records, making rows), which
   * overlaps PostgreSQL's reading; then of the statements that store the rows.
   */
  parseMs: number;
  storeMs: number;
}

// A record's bytes as text, decoded by PostgreSQL; one that is not UTF-8 makes it fail,
// and the contract is read again with Node decoding the bytes, as the log does.
const readRecords = (bytes: boolean) => `
DECLARE rebuild_records NO SCROLL CURSOR FOR
SELECT list_id, ${bytes ? 'body' : `convert_from(body, 'UTF8') AS body`} FROM log_records
WHERE list_id = ANY($1::integer[]) AND removed_at IS NULL ORDER BY seq`;
const INVALID_TEXT = '22021';

export async function rebuildChanges(
  client: pg.ClientBase,
  contractId: number,
  contract: string,
  lists: readonly ListRow[],
  own: ReadonlySet<number>,
  options: { batch?: number; onRecords?: (records: number) => void },
): Promise<ChangesRead> {
  await client.query('SAVEPOINT rebuild_changes');
  let read: ChangesRead;
  try {
    read = await readInto(client, contractId, contract, lists, own, false, options);
  } catch (error) {
    if ((error as { code?: string }).code !== INVALID_TEXT) throw error;
    await client.query('ROLLBACK TO SAVEPOINT rebuild_changes');
    read = await readInto(client, contractId, contract, lists, own, true, options);
  }
  await client.query('RELEASE SAVEPOINT rebuild_changes');
  return read;
}

const STAGE = `
CREATE TEMP TABLE rebuild_rows ON COMMIT DROP AS
  SELECT ${CHANGE_COLUMNS} FROM idx_changes WITH NO DATA;
ALTER TABLE rebuild_rows ADD COLUMN n bigint GENERATED ALWAYS AS IDENTITY`;
const STAGE_ROWS = `INSERT INTO rebuild_rows (${CHANGE_COLUMNS})${CHANGE_TUPLES}`;
const columnsOf = (alias: string) => CHANGE_COLUMNS.replace(/\w+/g, `${alias}.$&`);
// The contract's stored rows ($1) made those put aside (after ANALYZE, so that the
// planner joins the two sets whole rather than looking rows up one by one).
const APPLY = [
  `DELETE FROM idx_changes c WHERE c.contract_id = $1
     AND NOT EXISTS (SELECT FROM rebuild_rows s WHERE s.key = c.key)`,
  `UPDATE idx_changes c SET (${CHANGE_COLUMNS}) = (${columnsOf('s')}) FROM rebuild_rows s
   WHERE c.contract_id = $1 AND c.key = s.key
     AND (${columnsOf('c')}) IS DISTINCT FROM (${columnsOf('s')})`,
  `INSERT INTO idx_changes (${CHANGE_COLUMNS}) SELECT ${columnsOf('s')} FROM rebuild_rows s
   WHERE NOT EXISTS (SELECT FROM idx_changes c WHERE c.contract_id = $1 AND c.key = s.key)
   ORDER BY s.n`,
];

/**
 * Reading and putting aside overlap: PostgreSQL stores one batch and reads the next while
 * Node parses the one after (one connection, its queries run in the order they were
 * queued).
 */
async function readInto(
  client: pg.ClientBase,
  contractId: number,
  contract: string,
  lists: readonly ListRow[],
  own: ReadonlySet<number>,
  bytes: boolean,
  { batch = RECORDS_BATCH, onRecords }: { batch?: number; onRecords?: (records: number) => void },
): Promise<ChangesRead> {
  const read: ChangesRead = {
    records: 0,
    skipped: 0,
    foreign: 0,
    ownRecords: 0,
    oldest: null,
    newest: null,
    parseMs: 0,
    storeMs: 0,
  };
  await client.query(STAGE);
  await client.query(readRecords(bytes), [lists.map((list) => list.id)]);
  // Each query is awaited later, after others queued behind it: a failure must not go
  // unhandled meanwhile.
  const queued = <T>(query: Promise<T>) => {
    query.catch(() => undefined);
    return query;
  };
  const fetch = () =>
    queued(
      client.query<{ list_id: number; body: string | Buffer }>(
        `FETCH ${batch} FROM rebuild_records`,
      ),
    );
  const made = new Set<string>();
  // Rows of keys an earlier batch made, in arrival order.
  const later: ChangeRow[] = [];
  let writing: Promise<unknown> = Promise.resolve();
  let next = fetch();
  for (;;) {
    const { rows } = await next;
    if (rows.length === 0) break;
    next = fetch();
    const started = performance.now();
    const first: ChangeRow[] = [];
    for (const row of changesOf(rows, contract, own, read)) {
      const key = row.key.toString('latin1');
      if (made.has(key)) later.push(row);
      else {
        made.add(key);
        first.push(row);
      }
    }
    const tuples = first.length > 0 ? changeTuples(first) : null;
    read.parseMs += performance.now() - started;
    await writing;
    if (tuples) writing = queued(client.query(STAGE_ROWS, [tuples, contractId]));
    onRecords?.(rows.length);
  }
  await writing;
  await client.query('CLOSE rebuild_records');
  const storing = performance.now();
  await client.query('ANALYZE rebuild_rows');
  for (const statement of APPLY) await client.query(statement, [contractId]);
  await client.query('DROP TABLE rebuild_rows');
  // One statement cannot change a row twice: a key's later rows go in rounds, in order.
  for (let rows = later; rows.length > 0;) {
    const round = new Map<string, ChangeRow>();
    const rest: ChangeRow[] = [];
    for (const row of rows) {
      const key = row.key.toString('latin1');
      if (round.has(key)) rest.push(row);
      else round.set(key, row);
    }
    await insertChanges(client, contractId, [...round.values()]);
    rows = rest;
  }
  read.storeMs = performance.now() - storing;
  return read;
}

/** A batch's records as change rows, counted into `read`. */
function changesOf(
  rows: readonly { list_id: number; body: string | Buffer }[],
  contract: string,
  own: ReadonlySet<number>,
  read: ChangesRead,
): ChangeRow[] {
  const events: TokenEvent[] = [];
  for (const row of rows) {
    const ofContract = own.has(row.list_id);
    read.records += 1;
    if (ofContract) read.ownRecords += 1;
    const event = normaliseEvent(JSON.parse(row.body.toString()), contract);
    if (!event) {
      read.skipped += 1;
      continue;
    }
    if (event.contractAddress !== contract) {
      read.foreign += 1;
      continue;
    }
    events.push(event);
    const ts = event.timestamp;
    if (ofContract && (read.oldest === null || ts < read.oldest)) read.oldest = ts;
    if (read.newest === null || ts > read.newest) read.newest = ts;
  }
  return changeRows(events);
}
