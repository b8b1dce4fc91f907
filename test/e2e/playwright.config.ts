import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM, findChromium } from './support/chromium';
import { APP_PORTS_ENV, ARTIFACTS_DIR, E2E_DIR, PROFILES, type Profile } from './support/servers';
import { freePort } from '../support/free-port';

// Each project's baseURL must be known when the config is read, before the global setup
// starts the servers. The ports are chosen once, by the runner; its workers inherit them.
if (!process.env[APP_PORTS_ENV]) {
  const ports = Object.fromEntries(
    await Promise.all(PROFILES.map(async (profile) => [profile, await freePort()] as const)),
  );
  process.env[APP_PORTS_ENV] = JSON.stringify(ports);
}
const appPorts = JSON.parse(process.env[APP_PORTS_ENV] as string) as Record<Profile, number>;

export default defineConfig({
  testDir: E2E_DIR,
  testMatch: '**/*.spec.ts',
  outputDir: join(ARTIFACTS_DIR, 'results'),
  globalSetup: join(E2E_DIR, 'global-setup.ts'),
  fullyParallel: false,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-GB',
    timezoneId: 'UTC',
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      // The setup installs Debian's package there when no Chromium is found.
      executablePath: findChromium().path ?? DEBIAN_CHROMIUM,
      // The app needs no other host: refusing every name keeps the tests offline and
      // quick where the network is slow (contract images from ipfs.io and the like).
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
    },
  },
  projects: PROFILES.map((profile) => ({
    name: profile,
    use: { baseURL: `http://127.0.0.1:${appPorts[profile]}` },
  })),
});
