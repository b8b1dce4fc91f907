import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const A = '0x' + '0'.repeat(60) + 'abcd';
const fixture = join(import.meta.dirname, 'fixtures', 'start-server.ts');
let clientDir: string;
let upstream: Server;
let upstreamUrl: string;
let slowRequestArrived: () => void = () => {};
const children: ChildProcess[] = [];

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>dashboard</title>');
  // A real service stand-in over HTTP: event pages take half a second.
  upstream = createServer((req, res) => {
    const send = () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ result: [{ event_id: '0x1' }], cursor: null }));
    };
    if (req.url?.startsWith('/v1/events/')) {
      slowRequestArrived();
      setTimeout(send, 500);
    } else send();
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(clientDir, { recursive: true, force: true });
});

function startChild(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: { PATH: process.env.PATH, CLIENT_DIR: clientDir, HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const output = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(stdout);
        if (match) resolve(match);
      };
      child.stdout?.on('data', check);
      void exited.then(() =>
        reject(new Error(`exited early; stdout: ${stdout} stderr: ${stderr}`)),
      );
      check();
    });
  return { child, exited, output, stderr: () => stderr, stdout: () => stdout };
}

function get(port: number, path: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('production server process', { timeout: 20_000 }, () => {
  it('on SIGTERM stops accepting, finishes requests in flight, then exits 0', async () => {
    const server = startChild({ TOKEN_EVENTS_API_URL: upstreamUrl, TOKEN_EVENTS_API_KEY: 'k' });
    const [, port] = await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const arrived = new Promise<void>((resolve) => (slowRequestArrived = resolve));
    const inFlight = get(Number(port), `/api/v1/events/${A}`);
    await arrived;
    server.child.kill('SIGTERM');
    await server.output(/SIGTERM: finishing requests in flight/);
    await expect(get(Number(port), '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ result: [{ event_id: '0x1' }], cursor: null });
    expect(await server.exited).toBe(0);
  });

  it('refuses to start with a real service URL but no key, and says why', async () => {
    const server = startChild({ TOKEN_EVENTS_API_URL: upstreamUrl });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(/TOKEN_EVENTS_API_KEY is not/);
  });

  it('refuses to start with a malformed URL', async () => {
    const server = startChild({ TOKEN_EVENTS_API_URL: 'https//nope', TOKEN_EVENTS_API_KEY: 'k' });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(/TOKEN_EVENTS_API_URL/);
  });
});
