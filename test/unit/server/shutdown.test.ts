import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { stopLeftPostgres } from '../../../src/server/database/embedded-postgres';

const A = '0x' + '0'.repeat(60) + 'abcd';
// The stand-in never answers for this contract.
const HUNG = '0x' + '0'.repeat(60) + 'dead';
const EVENT = {
  contract_address: A,
  event_type: 'transfer',
  event_id: '0x' + '1'.repeat(64),
  transaction_hash: '0x' + '2'.repeat(64),
  token_id: '7',
  from_address: '0x' + '0'.repeat(64),
  to_address: '0x' + '3'.repeat(64),
  timestamp: 1_700_000_000,
};
const fixture = join(import.meta.dirname, 'fixtures', 'start-server.ts');
let clientDir: string;
let upstream: Server;
let upstreamUrl: string;
let slowRequestArrived: () => void = () => {};
// Answers the event page the stand-in holds; set once it holds one.
let answerSlowRequest: () => void = () => {};
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
let started = 0;

beforeAll(async () => {
  clientDir = mkdtempSync(join(tmpdir(), 'client-'));
  // As root the embedded PostgreSQL runs as another user, who must reach its DATA_DIR.
  chmodSync(clientDir, 0o755);
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>dashboard</title>');
  // A real service stand-in over HTTP that lists A and HUNG: an event page of A is
  // answered when the test says so, one of HUNG never.
  upstream = createServer((req, res) => {
    const send = (body: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    };
    if (req.url?.startsWith('/v1/contracts')) {
      return send({ result: [{ contract_address: A }, { contract_address: HUNG }], cursor: null });
    }
    if (req.url?.includes(HUNG)) return slowRequestArrived();
    if (req.url?.startsWith('/v1/events/')) {
      answerSlowRequest = () => send({ result: [EVENT], cursor: null });
      slowRequestArrived();
    } else send({ result: [], cursor: null });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  // A killed server leaves its PostgreSQL running.
  for (const dir of dataDirs.splice(0)) await stopLeftPostgres(dir);
});

afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
  rmSync(clientDir, { recursive: true, force: true });
});

function startChild(env: Record<string, string>) {
  // A folder of its own each: a folder belongs to the one service it was first read from.
  const dataDir = join(clientDir, `data-${started++}`);
  dataDirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', fixture], {
    env: {
      PATH: process.env.PATH,
      CLIENT_DIR: clientDir,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      ...env,
    },
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

function get(port: number, path: string, agent?: Agent) {
  return new Promise<{ status: number; body: string; headers: IncomingHttpHeaders }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

const realUpstream = (env: Record<string, string> = {}) => ({
  TOKEN_EVENTS_API_URL: upstreamUrl,
  TOKEN_EVENTS_API_KEY: 'k',
  // Only the tests' own requests reach the stand-in: no reading in the background.
  INDEX_BACKGROUND_SHARE: '0',
  ...env,
});

/** A connection to the server, and a promise of its closing. */
async function rawConnection(port: number): Promise<{ socket: Socket; closed: Promise<unknown> }> {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('error', () => {});
  await once(socket, 'connect');
  return { socket, closed: once(socket, 'close') };
}

// A bound on a hang: each test starts a server process (its code compiled, its PostgreSQL
// started), which took 11–17 s on the busy 2 cores with one test file at a time, and past
// 30 s with two.
describe('production server process', { timeout: 90_000 }, () => {
  it('on SIGTERM stops accepting, finishes requests in flight, then exits 0', async () => {
    const server = startChild(realUpstream());
    const [, port] = await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const arrived = new Promise<void>((resolve) => (slowRequestArrived = resolve));
    const inFlight = get(Number(port), `/api/v1/events/${A}`);
    await arrived;
    server.child.kill('SIGTERM');
    await server.output(/SIGTERM: finishing requests in flight/);
    await expect(get(Number(port), '/healthz')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    answerSlowRequest();
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    // Read into the log and served from it, as the service sent it.
    expect(JSON.parse(answer.body)).toEqual({ result: [EVENT], cursor: null });
    expect(await server.exited).toBe(0);
  });

  // A shutdown timeout far beyond the test's: waiting for it would fail the test.
  const PATIENT = { SHUTDOWN_TIMEOUT_MS: '600000' };

  it('on SIGTERM closes an idle keep-alive connection at once and exits 0', async () => {
    const server = startChild(realUpstream(PATIENT));
    const [, port] = await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const answer = await get(Number(port), '/healthz', agent);
    expect(answer.status).toBe(200);
    const [socket] = Object.values(agent.freeSockets).flat();
    expect(socket).toBeDefined();
    const closed = once(socket!, 'close');
    server.child.kill('SIGTERM');
    await closed;
    expect(await server.exited).toBe(0);
    agent.destroy();
  });

  it.each([
    ['still sending its headers', 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n'],
    ['that has sent nothing', ''],
  ])('on SIGTERM closes a connection %s at once and exits 0', async (_name, sent) => {
    const server = startChild(realUpstream({ ...PATIENT, SAY_CONNECTIONS: 'true' }));
    const [, port] = await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const connection = await rawConnection(Number(port));
    if (sent) connection.socket.write(sent);
    // The server has the connection, and the bytes, before it is told to stop.
    await server.output(sent ? /connection bytes read/ : /connection accepted/);
    server.child.kill('SIGTERM');
    await connection.closed;
    expect(await server.exited).toBe(0);
  });

  it('on SIGTERM answers requests still waiting for a hung upstream with 503, then exits 0', async () => {
    const server = startChild(
      realUpstream({ SHUTDOWN_TIMEOUT_MS: '300', UPSTREAM_TIMEOUT_MS: '600000' }),
    );
    const [, port] = await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const arrived = new Promise<void>((resolve) => (slowRequestArrived = resolve));
    const waiting = get(Number(port), `/api/v1/events/${HUNG}`);
    await arrived;
    server.child.kill('SIGTERM');
    const answer = await waiting;
    expect(answer.status).toBe(503);
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['retry-after']).toBe('1');
    expect(JSON.parse(answer.body)).toEqual({
      error: {
        kind: 'busy',
        status: 503,
        message: expect.stringMatching(/restarting/),
        retryAfterSeconds: 1,
      },
    });
    expect(await server.exited).toBe(0);
  });

  it('warns at start-up when told to send the key in clear text to another host', async () => {
    const server = startChild({
      TOKEN_EVENTS_API_URL: 'http://192.0.2.1',
      TOKEN_EVENTS_API_KEY: 'k',
      ALLOW_INSECURE_UPSTREAM: 'true',
    });
    await server.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    expect(server.stderr()).toMatch(/Warning: .*192\.0\.2\.1.*unencrypted/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses to start with a real service URL but no key, and says why', async () => {
    const server = startChild({ TOKEN_EVENTS_API_URL: upstreamUrl });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(/TOKEN_EVENTS_API_KEY is not/);
  });

  it('refuses to start when its database cannot be opened, in one line', async () => {
    const notAFolder = join(clientDir, 'not-a-folder');
    writeFileSync(notAFolder, '');
    const server = startChild({ DATA_DIR: join(notAFolder, 'data') });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(
      /^The database cannot be opened: cannot create DATA_DIR \S+: a file is in the way of the folder\n$/,
    );
  });

  it('says in one line that its port is taken, and exits', async () => {
    const first = startChild(realUpstream());
    const [, port] = await first.output(/on http:\/\/127\.0\.0\.1:(\d+)\//);
    const second = startChild(realUpstream({ PORT: port! }));
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toMatch(
      new RegExp(`^Port ${port} is taken \\(127\\.0\\.0\\.1:${port}\\): .+\\n$`),
    );
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // Two servers started one after the other, each making its embedded PostgreSQL.
  }, 45_000);

  it('refuses to start with a malformed URL', async () => {
    const server = startChild({ TOKEN_EVENTS_API_URL: 'https//nope', TOKEN_EVENTS_API_KEY: 'k' });
    expect(await server.exited).toBe(1);
    expect(server.stderr()).toMatch(/TOKEN_EVENTS_API_URL/);
  });
});
