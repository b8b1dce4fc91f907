import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { canonicalAddress } from '../lib/address';
import { coverageOf } from './api/coverage';
import { configFromEnvironment } from './config';
import { resetDatabase } from './database/reset-service';
import { eachAtOnce } from './each-at-once';
import { contractEventsPath } from './index/list-path';
import { rebuildCommand } from './index/rebuild-command';
import { openServices } from './open-services';
import { composeServer } from './compose';
import { createUpstream } from './upstream/create-upstream';
import { formatUtcDay } from '../lib/utc';

/**
 * `npm run index -- 0x… [0x…]` or `npm run index -- --all`: reads named contracts' whole
 * history (or every listed contract's) into the index, with the server's configuration,
 * budget and database, printing progress each second. Safe beside running servers: each
 * list is read by one of them at a time. `--rebuild [0x…]`: the index made again from the
 * record log alone, for the contracts named or for everything (index/rebuild-command.ts).
 * `--reset` empties the log, the index and the service they came from, so the database
 * can take another service. `--at-once N`: contracts read side by side (default 1). A
 * contract's pages are stored one after another, so several at once keep both PostgreSQL
 * and Node busy. Three at once ran past the pool's 20 s query timeout on the embedded
 * PostgreSQL in 4 of 5 runs while ingest's token upsert was planned for a contract the
 * statistics had not met; since its look-ups no longer depend on them, 1 run of 3 still
 * stopped so at a load average of 22 on 2 cores (test/bench/README.md, bench `ingest`),
 * so one at a time stays the default. `--from-log`: a contract's first read goes into the
 * record log alone and its index is built from it (index/first-read.ts) instead of each
 * page ingested as it commits; bench `ingest` compares the two (per page was faster).
 */
const usage =
  'Usage: npm run index -- [--all | --rebuild] [--at-once N] [--from-log] [contract address …] | --reset';
const AT_ONCE = 1;

async function main() {
  const { values, positionals } = parseArgs({
    options: {
      all: { type: 'boolean', default: false },
      reset: { type: 'boolean', default: false },
      rebuild: { type: 'boolean', default: false },
      'from-log': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
      'at-once': { type: 'string', default: String(AT_ONCE) },
    },
    allowPositionals: true,
  });
  if (
    values.help ||
    (!values.all && !values.reset && !values.rebuild && positionals.length === 0)
  ) {
    console.log(usage);
    process.exit(values.help ? 0 : 2);
  }
  if (values.reset) {
    await resetDatabase(configFromEnvironment().data.database, (line) => console.log(line));
    process.exit(0);
  }
  const atOnce = Number(values['at-once']);
  if (!Number.isInteger(atOnce) || atOnce < 1) {
    console.error(`--at-once takes a whole number from 1: ${values['at-once']}\n${usage}`);
    process.exit(2);
  }
  const addresses: string[] = [];
  for (const input of positionals) {
    const address = canonicalAddress(input);
    if (!address) {
      console.error(`Not a contract address: ${input}\n${usage}`);
      process.exit(2);
    }
    addresses.push(address);
  }
  if (values.rebuild) {
    await rebuildCommand(addresses);
    process.exit(0);
  }
  const config = configFromEnvironment();
  const services = await openServices(config, (line) => console.log(line), {
    bulkFirstRead: values['from-log'],
  });
  const proxy = composeServer({
    upstream: createUpstream(services.upstream),
    ...config.proxy,
    ...services.proxy,
    index: { ...services.proxy.index!, backgroundRate: 0 },
  });
  const indexer = proxy.indexer!;
  let failed = false;
  try {
    if (values.all) {
      console.log('Reading the contracts list…');
      addresses.push(...(await indexer.listed()).map((row) => row.address));
    }
    let records = 0;
    let changes = 0;
    const changesOf = async (address: string) => {
      const { rows } = await services.engine.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM idx_changes c JOIN idx_contracts a ON a.id = c.contract_id
          WHERE a.address = $1`,
        [address],
      );
      return Number(rows[0]?.n ?? 0);
    };
    const indexOne = async (index: number, address: string) => {
      // Asked for by name: a list stopped as faulty is tried again.
      if (!values.all) await proxy.reader.clearFault(contractEventsPath(address));
      const walk = indexer.whole(address);
      const started = Date.now();
      let last = 0;
      const report = async () => {
        const { coverage } = await coverageOf(services.engine.pool, address, walk.progress);
        last = coverage.records;
        const back = coverage.indexedBack === null ? '—' : formatUtcDay(coverage.indexedBack);
        console.log(
          `[${index + 1}/${addresses.length}] ${address}: ${coverage.records} records` +
            (coverage.catchingUp !== null ? ` (${coverage.catchingUp} indexed)` : '') +
            `, back to ${back}, ` +
            `${walk.progress.pages} pages at ${walk.progress.pagesPerSecond.toFixed(1)}/s` +
            (coverage.complete ? ', whole history indexed' : ''),
        );
      };
      const timer = setInterval(() => void report().catch(() => undefined), 1_000);
      await walk.done;
      clearInterval(timer);
      await report();
      records += last;
      changes += await changesOf(address);
      if (walk.progress.state !== 'done') {
        failed = true;
        console.error(`  ${address} stopped: ${walk.progress.failure ?? walk.progress.state}`);
      } else {
        console.log(`  ${address} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      }
    };
    const started = Date.now();
    await eachAtOnce(addresses, atOnce, (address, index) => indexOne(index, address));
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `All done in ${seconds.toFixed(1)} s: ${records} records, ${changes} changes of hands, ` +
        `${Math.round(changes / seconds)} a second`,
    );
  } finally {
    await proxy.stop();
    await services.close();
  }
  const cpu = cpuSeconds();
  // The embedded PostgreSQL, stopped, is a child process waited for: its time is counted.
  if (cpu) {
    console.log(
      `CPU: Node ${cpu.own.toFixed(1)} s` +
        (cpu.children > 0 ? `, the embedded PostgreSQL ${cpu.children.toFixed(1)} s` : ''),
    );
  }
  process.exit(failed ? 1 : 0);
}

/**
 * CPU seconds of this process, and of its children that ended (the embedded PostgreSQL and
 * its sessions), from Linux's /proc; undefined where there is none.
 */
function cpuSeconds(): { own: number; children: number } | undefined {
  try {
    // Fields after the command name, which is in parentheses and may hold spaces; the
    // kernel counts in USER_HZ, 100 a second on every Linux Node runs on.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    const { user, system } = process.cpuUsage();
    return {
      own: (user + system) / 1e6,
      children: (Number(fields[13]) + Number(fields[14])) / 100,
    };
  } catch {
    return undefined;
  }
}

void main().catch((error: unknown) => {
  console.error(`Indexing failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
