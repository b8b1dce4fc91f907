import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { usePostgresDatabases } from '../../support/postgres-databases';

const fixture = join(import.meta.dirname, 'fixtures', 'count-usage.ts');
const databases = usePostgresDatabases();

/** Runs the fixture: it counts `count` requests, and is killed with SIGKILL once it says so. */
async function countThenKill(url: string, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, url, String(count)], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = once(child, 'exit');
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes(`counted ${count}\n`)) {
        // At once, as `kill -9` would: nothing of the child runs after this.
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`the fixture exited (${code}): ${stderr}`)));
  });
  const [, signal] = await exited;
  expect(signal).toBe('SIGKILL');
}

async function usageIn(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ total: string }>(
      'SELECT coalesce(sum(requests), 0) AS total FROM upstream_usage',
    );
    return Number(rows[0]!.total);
  } finally {
    await client.end();
  }
}

describe('the upstream usage count and kill -9', () => {
  it('holds every request counted before the process was killed', async () => {
    const { url, drop } = await databases.database();
    try {
      await countThenKill(url, 200);
      expect(await usageIn(url)).toBe(200);
      // And again on top: a restarted server adds to the same count.
      await countThenKill(url, 37);
      expect(await usageIn(url)).toBe(237);
    } finally {
      await drop();
    }
  }, 60_000);
});
