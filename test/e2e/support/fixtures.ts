import {
  test as base,
  expect,
  type ConsoleMessage,
  type Response as PlaywrightResponse,
} from '@playwright/test';
import { readServers, type Profile, type ProfileServers } from './servers';

/** The sample service's fault plan (src/server/sample-service/faults.ts). */
export interface FaultPlan {
  latencyMs?: number;
  fault?:
    | { type: 'status'; status: number; message?: string; retryAfterSeconds?: number }
    | { type: 'malformed-json' }
    | { type: 'truncated' }
    | { type: 'drop' }
    | { type: 'no-cursor' };
  nth?: number;
  times?: number;
  pathIncludes?: string;
}

/** The sample service's control endpoints, called from the test process with the key. */
export interface SampleControl {
  setFaults(plan: FaultPlan | null): Promise<void>;
  /** The service forgets every cursor it has issued (as its cursor cache may at any time). */
  forgetCursors(): Promise<void>;
}

/**
 * Console output and uncaught errors of every page of the test. Errors and warnings fail
 * the test (a clean console: React's and the router's warnings included) unless they are
 * the browser's own log of an API answer the test asked for.
 */
export interface ConsoleWatch {
  /** Allows the "Failed to load resource" log of /api/ answers with these statuses. */
  allowApiFailures(...statuses: number[]): void;
}

/** Every response the browser receives, checked for the upstream's API key. */
export interface KeyWatch {
  /** How many responses were checked so far. */
  checked(): Promise<number>;
}

interface Fixtures {
  servers: ProfileServers;
  sample: SampleControl;
  consoleWatch: ConsoleWatch;
  keyWatch: KeyWatch;
}

export const test = base.extend<Fixtures>({
  // Playwright reads the fixtures a function needs from its first parameter's pattern.
  // eslint-disable-next-line no-empty-pattern
  servers: async ({}, use, testInfo) => {
    await use(readServers()[testInfo.project.name as Profile]);
  },

  sample: async ({ servers }, use) => {
    let changed = false;
    const call = async (path: string, init: RequestInit) => {
      const response = await fetch(`${servers.sampleUrl}${path}`, {
        ...init,
        headers: { 'x-api-key': servers.apiKey, 'content-type': 'application/json' },
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
    };
    const setFaults = async (plan: FaultPlan | null) => {
      changed = true;
      await call('/_control/faults', { method: 'PUT', body: JSON.stringify(plan) });
    };
    const forgetCursors = () => call('/_control/cursors/forget', { method: 'POST' });
    await use({ setFaults, forgetCursors });
    // Whatever happened in the test, the next one starts without faults.
    if (changed) await setFaults(null);
  },

  consoleWatch: [
    async ({ context, baseURL }, use) => {
      const origin = new URL(baseURL as string).origin;
      const allowed = new Set<number>();
      const errors: string[] = [];
      const expected = (message: ConsoleMessage) => {
        const text = message.text();
        if (!text.startsWith('Failed to load resource')) return false;
        const url = message.location().url;
        // Images of other hosts: the browser is offline on purpose (see the config).
        if (url && !url.startsWith(origin)) return true;
        const status = /status of (\d{3})/.exec(text)?.[1];
        // A collection image the server could not serve: the page draws its monogram.
        if (url.startsWith(`${origin}/api/images/`) && status === '404') return true;
        return (
          url.startsWith(`${origin}/api/`) && status !== undefined && allowed.has(Number(status))
        );
      };
      context.on('console', (message) => {
        if (!['error', 'assert', 'warning'].includes(message.type())) return;
        if (expected(message)) return;
        errors.push(`console.${message.type()}: ${message.text()} (${message.location().url})`);
      });
      context.on('weberror', (error) =>
        errors.push(`uncaught: ${error.error().stack ?? error.error()}`),
      );
      await use({
        allowApiFailures: (...statuses) => statuses.forEach((status) => allowed.add(status)),
      });
      expect(errors, 'errors and warnings in the browser console').toEqual([]);
    },
    { auto: true },
  ],

  // In every test: the key must never reach the browser, in a body or in a header.
  keyWatch: [
    async ({ context, servers }, use) => {
      const checks: Promise<string | null>[] = [];
      const inspect = async (response: PlaywrightResponse): Promise<string | null> => {
        const headers = JSON.stringify(await response.allHeaders().catch(() => ({})));
        // The built files are searched on disk (security.spec.ts); reading each again here
        // would only slow every test down.
        if (new URL(response.url()).pathname.startsWith('/assets/')) {
          return headers.includes(servers.apiKey) ? `${response.status()} ${response.url()}` : null;
        }
        // A response still arriving when the test ends is not worth waiting long for.
        const body = await Promise.race([
          response.body().catch(() => Buffer.alloc(0)),
          new Promise<Buffer>((resolve) => setTimeout(() => resolve(Buffer.alloc(0)), 5_000)),
        ]);
        const leak = headers.includes(servers.apiKey) || body.includes(servers.apiKey);
        return leak ? `${response.status()} ${response.url()}` : null;
      };
      context.on('response', (response) => checks.push(inspect(response)));
      await use({ checked: async () => (await Promise.all(checks)).length });
      const leaks = (await Promise.all(checks)).filter((leak) => leak !== null);
      expect(leaks, 'responses that carry the API key').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
