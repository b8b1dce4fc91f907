import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { stopLeftPostgres } from '../../src/server/database/embedded-postgres';
import {
  generateDataset,
  HOSTILE_CONTRACT_NAME,
  servedEventCount,
  servedRecordCount,
  STARKVERSE_EXAMPLE_MINT,
  STARKVERSE_GALLERY_ADDRESS,
  TIMELINE,
  type Dataset,
} from '../../src/server/sample-service';
import { findChromium } from './support/chromium';
import {
  launch,
  LOG_DIR,
  startAppServer,
  signalGroup,
  stopChildren,
  waitForLine,
} from './support/processes';
import {
  APP_PORTS_ENV,
  DATASET,
  PROFILES,
  REPO_DIR,
  SERVERS_ENV,
  SERVERS_FILE,
  type ContractInfo,
  type Profile,
  type ProfileServers,
  type Servers,
  type TokenInfo,
  WEBHOOK_TOKEN,
} from './support/servers';

/** A fixed end of the timeline, so no time a test sees depends on when it runs. */
const ANCHOR = TIMELINE.end;
// The servers' DATA_DIRs, one folder per clone, emptied at each run.
const DATA_ROOT = join(
  tmpdir(),
  `token-dashboard-e2e-${createHash('sha256').update(REPO_DIR).digest('hex').slice(0, 12)}`,
);

/**
 * Once per run: makes sure there is a Chromium, builds the app, and starts for each
 * profile a standalone sample service and a production server in front of it. Returns
 * the teardown, which stops every process started here.
 */
export default async function globalSetup(_config: FullConfig) {
  const setupStarted = Date.now();
  ensureChromium();
  mkdirSync(LOG_DIR, { recursive: true });

  const children: ChildProcess[] = [];
  // A server killed because it took too long to stop leaves its PostgreSQL running.
  const stopAll = () => stopChildren(children).then(stopLeftDatabases);
  // If the runner dies without running the teardown, the servers must not outlive it.
  const onExit = () => {
    for (const child of children) signalGroup(child, 'SIGKILL');
  };
  process.once('exit', onExit);

  try {
    const appPorts = JSON.parse(process.env[APP_PORTS_ENV] ?? 'null') as Record<
      Profile,
      number
    > | null;
    if (!appPorts)
      throw new Error(`${APP_PORTS_ENV} is not set: run through test/e2e/playwright.config.ts.`);
    // A key no one could guess or find by accident: the security tests search for it.
    const apiKey = `e2e-key-${randomBytes(18).toString('hex')}`;
    const samples = PROFILES.map((profile) => startSample(profile, apiKey, children));
    // Awaited below; until then a failure must not count as unhandled.
    for (const sample of samples) sample.catch(() => {});
    // Built with the key in the environment, as on a server configured by environment:
    // the security tests then show that none of it reaches the bundle.
    await build({ TOKEN_EVENTS_API_KEY: apiKey });
    const dataset = generateDataset({ ...DATASET, anchor: ANCHOR });
    const started = await Promise.all(
      PROFILES.map(async (profile, index) => ({
        ...(await startApp(profile, apiKey, await samples[index]!, appPorts[profile], children)),
        ...pickData(dataset, profile),
      })),
    );
    const servers = Object.fromEntries(started.map((entry) => [entry.profile, entry])) as Servers;
    process.env[SERVERS_ENV] = JSON.stringify(servers);
    writeFileSync(SERVERS_FILE, JSON.stringify(servers, null, 2));
    console.log(
      `Servers ready in ${Date.now() - setupStarted} ms: ` +
        PROFILES.map((profile) => `${profile} ${servers[profile].appUrl}`).join(', '),
    );
  } catch (error) {
    await stopAll();
    throw error;
  }

  return async () => {
    await stopAll();
    process.removeListener('exit', onExit);
  };
}

async function stopLeftDatabases() {
  for (const profile of PROFILES) {
    await stopLeftPostgres(join(DATA_ROOT, profile));
  }
}

function ensureChromium(): void {
  const found = findChromium();
  if (found.path) return;
  if (found.problem) throw new Error(found.problem);
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root && existsSync('/etc/debian_version')) {
    console.log('No Chromium found: installing Debian’s chromium (apt-get install -y chromium)…');
    const result = spawnSync('sh', ['-c', 'apt-get update && apt-get install -y chromium'], {
      stdio: 'inherit',
    });
    if (result.status === 0 && findChromium().path) {
      console.log(`Installed Chromium at ${findChromium().path}.`);
      return;
    }
    throw new Error('Installing chromium with apt-get failed; see the output above.');
  }
  throw new Error(
    'No Chromium found. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH ' +
      'to a Chromium or Chrome executable.',
  );
}

async function build(env: Record<string, string>): Promise<void> {
  const started = Date.now();
  const child = spawn('npx', ['vite', 'build', '--configLoader', 'runner', '--logLevel', 'warn'], {
    cwd: REPO_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`The app does not build (npx vite build):\n${output}`);
  console.log(`Built dist/client in ${Date.now() - started} ms.`);
}

/** The standalone sample service of one profile, on a port of its choosing; its URL. */
async function startSample(
  profile: Profile,
  apiKey: string,
  children: ChildProcess[],
): Promise<string> {
  const sample = launch(
    `sample-${profile}`,
    [
      'src/server/sample-service/cli.ts',
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--key',
      apiKey,
      '--seed',
      String(DATASET.seed),
      '--profile',
      profile,
      '--contracts',
      String(DATASET.contracts),
      '--events',
      String(DATASET.events),
      '--anchor',
      String(ANCHOR),
      // No new events while the tests run: what they count stays put.
      '--live',
      'off',
    ],
    {},
    children,
  );
  const line = await waitForLine(sample, /listening on (http:\/\/\S+?)\/v1\b/);
  return line[1] as string;
}

/**
 * The production server of one profile, in front of its sample service, with its own
 * embedded PostgreSQL (empty at each run) holding its record log and event index.
 */
async function startApp(
  profile: Profile,
  apiKey: string,
  sampleUrl: string,
  appPort: number,
  children: ChildProcess[],
): Promise<Omit<ProfileServers, 'contracts' | 'token' | 'longToken' | 'unopenedToken'>> {
  const dataDir = join(DATA_ROOT, profile);
  // As root the embedded PostgreSQL runs as the postgres user, who must reach DATA_DIR:
  // under the temporary folder, not wherever the clone is.
  mkdirSync(DATA_ROOT, { recursive: true, mode: 0o755 });
  chmodSync(DATA_ROOT, 0o755);
  // A run killed before its teardown leaves its servers' PostgreSQL running.
  await stopLeftPostgres(dataDir);
  rmSync(dataDir, { recursive: true, force: true });
  const appUrl = await startAppServer(
    `app-${profile}`,
    { port: appPort, sampleUrl, apiKey, env: { DATA_DIR: dataDir, WEBHOOK_TOKEN } },
    children,
  );
  if (new URL(appUrl).port !== String(appPort)) {
    throw new Error(`The ${profile} server listens on ${appUrl}, not on port ${appPort}.`);
  }
  // The ranking, as a first visitor asks it: the server reads the contracts list then (and
  // waits up to 10 s for it), which is not what the tests time. The first two tests of a
  // whole run waited past their 7 s for it in 2 runs of 4, at load 3–6.
  const ranking = await fetch(`${appUrl}/api/collections`, { signal: AbortSignal.timeout(60_000) });
  if (!ranking.ok) throw new Error(`The ${profile} server's ranking answered ${ranking.status}.`);
  await ranking.arrayBuffer();
  return { profile, appUrl, sampleUrl, apiKey };
}

/**
 * The same dataset as the sample services generate, to pick contracts for each kind of test,
 * with what one profile serves of them.
 */
function pickData(
  dataset: Dataset,
  profile: Profile,
): Pick<ProfileServers, 'contracts' | 'token' | 'longToken' | 'unopenedToken'> {
  const info = (contract: Dataset['contracts'][number]): ContractInfo => ({
    address: contract.address,
    name: contract.name,
    eventCount: servedRecordCount(dataset, profile, { contract }),
    rowCount: servedEventCount(dataset, profile, { contract }),
  });
  const byEvents = [...dataset.contracts].sort((a, b) => b.eventCount - a.eventCount);
  const deep = byEvents.slice(0, 3);
  const hostile = dataset.contracts.find((contract) => contract.name === HOSTILE_CONTRACT_NAME);
  if (!hostile) throw new Error('The dataset has no hostile contract.');
  const candidates = byEvents
    .slice(3)
    .filter((contract) => contract !== hostile && contract.eventCount > 100);
  // The smallest of them for the wallet tests alone: its whole history indexes in a
  // moment (a big one kept the machine's two cores busy for seconds while others ran).
  const forWallet = candidates.at(-1);
  if (!forWallet) throw new Error('The dataset lacks a small contract for the wallet tests.');
  const forFaults = candidates.filter((contract) => contract !== forWallet);
  const busiest = dataset.contractByAddress(STARKVERSE_GALLERY_ADDRESS);
  const token = busiest && dataset.findToken(busiest, STARKVERSE_EXAMPLE_MINT.tokenId);
  if (!busiest || !token) throw new Error('The dataset lacks the StarkVerse example token.');
  return {
    contracts: {
      count: dataset.contracts.length,
      deep: deep.map(info),
      hostile: info(hostile),
      forFaults: forFaults.map(info),
      forWallet: info(forWallet),
    },
    token: tokenInfo(token),
    longToken: tokenInfo(longHistory(dataset, busiest)),
    unopenedToken: tokenInfo(longHistory(dataset, deep[2]!)),
  };

  function tokenInfo(of: NonNullable<ReturnType<Dataset['findToken']>>): TokenInfo {
    return {
      contract: of.contract.address,
      id: of.id.toString(),
      events: servedRecordCount(dataset, profile, { token: of }),
      rows: servedEventCount(dataset, profile, { token: of }),
    };
  }
}

/** A token of the contract with a history of ten events or more, sales among them. */
function longHistory(dataset: Dataset, contract: Dataset['contracts'][number]) {
  for (let index = 0; index < dataset.tokenCount; index++) {
    const token = dataset.token(index);
    if (token.contract !== contract) continue;
    const seqs = [...dataset.tokenEvents(token)];
    if (seqs.length >= 10 && seqs.some((seq) => dataset.sale(seq))) return token;
  }
  throw new Error('The dataset has no token with a long history.');
}
