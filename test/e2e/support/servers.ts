import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const E2E_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const REPO_DIR = resolve(E2E_DIR, '../..');
export const ARTIFACTS_DIR = join(E2E_DIR, 'artifacts');
export const SCREENSHOTS_DIR = join(ARTIFACTS_DIR, 'screenshots');
export const SERVERS_FILE = join(ARTIFACTS_DIR, 'servers.json');

/**
 * The sample service's profiles the browser suite runs: the deployed one, the real
 * service's. The documented profile renders through the same components; what it changes
 * (records, cursors, images) is checked over the server in Vitest (test/README.md).
 */
export const PROFILES = ['deployed'] as const;
export type Profile = (typeof PROFILES)[number];

/** Small enough to generate in a blink, big enough for a few lists of several pages. */
export const DATASET = { seed: 1, contracts: 18, events: 200_000 } as const;

/** How long the e2e production servers wait for the sample service before answering 504. */
export const UPSTREAM_TIMEOUT_MS = 1500;

/** The e2e servers' `WEBHOOK_TOKEN`: webhooks are on, for the webhooks page's tests. */
export const WEBHOOK_TOKEN = 'e2e-operator-webhook-token';

export interface ContractInfo {
  address: string;
  name: string;
  /**
   * Records the profile serves for the contract: one per event in the documented profile;
   * in the deployed one each sale twice (its transfer and the sale record), burns never.
   */
  eventCount: number;
  /** The rows the dashboard shows for them, one per change of hands (a sale's two records one row). */
  rowCount: number;
}

/** What the global setup started for one profile, and what tests need to know about its data. */
export interface ProfileServers {
  profile: Profile;
  /** The production server, with its record log and event index. */
  appUrl: string;
  sampleUrl: string;
  apiKey: string;
  contracts: {
    /** How many contracts the service lists. */
    count: number;
    /** The three contracts with thousands of events, busiest first. Flow tests use these. */
    deep: ContractInfo[];
    /** The hostile one (script in its name, `javascript:` image). */
    hostile: ContractInfo;
    /**
     * Contracts of two pages or more that only the fault tests open, so nothing of theirs
     * is in the server's record log when a fault is set. Most events first.
     */
    forFaults: ContractInfo[];
    /** The smallest contract of two pages or more, which only the wallet tests open. */
    forWallet: ContractInfo;
  };
  /**
   * A token of the busiest contract with a few events (the real example mint), and how many
   * records the profile serves for it (deployed: each sale twice).
   */
  token: TokenInfo;
  /** A token of the busiest contract with ten events or more, sales among them. */
  longToken: TokenInfo;
  /**
   * A token with a long history in the third deep contract, whose collection page no test
   * opens (a collection's page starts reading its whole history): its token page meets a
   * collection the index has barely read.
   */
  unopenedToken: TokenInfo;
}

/** A token, and how many records and rows (a sale's two records one) the profile serves for it. */
export interface TokenInfo {
  contract: string;
  id: string;
  events: number;
  rows: number;
}

export type Servers = Record<Profile, ProfileServers>;

/** Set by the global setup in `process.env`, which the workers inherit; the file is for people. */
export const SERVERS_ENV = 'E2E_SERVERS';

export function readServers(): Servers {
  const fromEnv = process.env[SERVERS_ENV];
  if (fromEnv) return JSON.parse(fromEnv) as Servers;
  if (existsSync(SERVERS_FILE)) return JSON.parse(readFileSync(SERVERS_FILE, 'utf8')) as Servers;
  throw new Error('The e2e servers are not running: run the suite through playwright.config.ts.');
}

/** Ports for the production servers, one a profile, chosen once when the config is first read. */
export const APP_PORTS_ENV = 'E2E_APP_PORTS';
