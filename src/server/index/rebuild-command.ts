import pg from 'pg';
import { configFromEnvironment } from '../config';
import { openDatabase, type DatabaseConfig } from '../database/open-database';
import { migrate } from '../database/migrations';
import { rebuildIndex, type RebuildProgress, type RebuildStats } from './rebuild';

/**
 * `npm run index -- --rebuild [0x…]`: the index made again from the record log, for the
 * contracts named or for everything, with the server's database and nothing else (no
 * service is asked). Progress each second; then each contract's time, and the total.
 * Safe beside running servers: each contract is rebuilt holding its ingest lock.
 */
export async function rebuildCommand(addresses: readonly string[]): Promise<void> {
  const database = await openIndexDatabase(configFromEnvironment().data.database);
  const started = performance.now();
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const count = (n: number) => n.toLocaleString('en-US');
  let progress: RebuildProgress | undefined;
  let label = 'everything';
  let last = { at: started, records: 0 };
  const report = () => {
    if (!progress) return;
    const now = performance.now();
    const rate = ((progress.records - last.records) * 1000) / Math.max(1, now - last.at);
    last = { at: now, records: progress.records };
    const { contracts, contractsTotal } = progress;
    // Between two contracts' reads, a contract's rows are stored and its tables made.
    const doing = rate > 0 ? `${count(Math.round(rate))} records/s` : 'storing, making tables';
    console.log(
      `${label}: ${count(progress.records)} / ${count(progress.recordsTotal)} records, ` +
        `${doing}, contract ${Math.min(contracts + 1, contractsTotal)}/${contractsTotal}, ` +
        seconds(now - started),
    );
  };
  const timer = setInterval(report, 1_000);
  const done: RebuildStats[] = [];
  try {
    const runs: { contract?: string }[] =
      addresses.length > 0 ? addresses.map((contract) => ({ contract })) : [{}];
    for (const [index, run] of runs.entries()) {
      if (run.contract) label = `[${index + 1}/${runs.length}] ${run.contract}`;
      last = { at: performance.now(), records: 0 };
      done.push(
        ...(await rebuildIndex(database.pool, {
          ...run,
          onProgress: (now) => (progress = now),
        })),
      );
      progress = undefined;
    }
  } finally {
    clearInterval(timer);
    await database.close();
  }
  for (const stats of done.filter((s) => s.ms.read + s.ms.store + s.ms.tokens > 1_000)) {
    const { ms } = stats;
    console.log(
      `  ${stats.contract}: ${count(stats.records)} records, ${count(stats.changes)} changes; ` +
        `read ${seconds(ms.read)} (Node ${seconds(ms.parse)}), store ${seconds(ms.store)}, ` +
        `flags ${seconds(ms.flags)}, tokens ${seconds(ms.tokens)}, owners ${seconds(ms.owners)}, ` +
        `hours ${seconds(ms.hours)}`,
    );
  }
  const sum = (pick: (stats: RebuildStats) => number) =>
    done.reduce((total, stats) => total + pick(stats), 0);
  const elapsed = performance.now() - started;
  console.log(
    `Rebuilt ${count(done.length)} contract(s) from ${count(sum((s) => s.records))} records ` +
      `(${count(sum((s) => s.changes))} changes of hands) in ${seconds(elapsed)}, ` +
      `${count(Math.round((sum((s) => s.records) * 1000) / elapsed))} records/s`,
  );
  const skipped = sum((s) => s.skipped);
  const foreign = sum((s) => s.foreign);
  if (skipped + foreign > 0) {
    console.log(
      `  left out: ${count(skipped)} records the normaliser refused, ` +
        `${count(foreign)} naming another contract than their list's`,
    );
  }
}

/** The server's database alone, its schema brought up to date: what a rebuild needs. */
async function openIndexDatabase(config: DatabaseConfig) {
  const database = await openDatabase(config, (line) => console.log(line));
  // No query timeout: one statement makes a whole contract's tokens.
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle connection the server closes must not end the process with an unhandled error.
  pool.on('error', () => undefined);
  const close = async () => {
    await pool.end();
    await database.close();
  };
  try {
    await migrate(pool);
  } catch (error) {
    await close();
    throw error;
  }
  return { pool, close };
}
