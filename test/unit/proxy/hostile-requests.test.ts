import { describe, expect, it } from 'vitest';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';

const { proxyOn } = useProxies();

const A = '0x' + '0'.repeat(60) + 'abcd';

// Each of these must be answered by the proxy itself; none may reach the upstream.
const hostile: Array<[string, string, RequestInit?]> = [
  ['traversal', '/api/v1/events/../../admin'],
  ['encoded traversal', '/api/v1/events/%2e%2e/%2e%2e/%2e%2e/etc/passwd'],
  ['encoded slash in address', `/api/v1/events/${A}%2F..%2F..%2Fadmin`],
  ['encoded slash in token id', `/api/v1/events/${A}/1%2F2`],
  ['absolute URL in path', '/api/v1/events/https:%2F%2Fevil.example'],
  ['absolute URL as path segment', '/api/v1/events/http://evil.example/x'],
  ['protocol-relative', '/api//evil.example/v1/contracts'],
  ['unknown route', '/api/v1/admin'],
  ['unknown version', '/api/v2/contracts'],
  ['extra segment', `/api/v1/events/${A}/1/extra`],
  ['non-hex address', '/api/v1/events/0xZZZ'],
  ['address too long', `/api/v1/events/0x${'1'.repeat(65)}`],
  ['address without 0x', `/api/v1/events/${'1'.repeat(64)}`],
  ['negative token id', `/api/v1/events/${A}/-1`],
  ['token id over 256 bits', `/api/v1/events/${A}/0x1${'0'.repeat(64)}`],
  ['oversized token id', `/api/v1/events/${A}/${'9'.repeat(5000)}`],
  ['extra query parameter', '/api/v1/contracts?limit=10&url=http://evil.example'],
  ['api key in query', '/api/v1/contracts?x-api-key=abc'],
  ['repeated cursor', '/api/v1/contracts?cursor=a&cursor=b'],
  ['oversized cursor', `/api/v1/contracts?cursor=${'a'.repeat(10_000)}`],
  ['cursor with a newline', '/api/v1/contracts?cursor=abc%0D%0AHost:evil'],
  ['cursor with an ampersand', '/api/v1/contracts?cursor=a%26limit%3D9'],
  // The service's own kind of cursor: never forwarded, ours are signed.
  ['a cursor this server never gave', '/api/v1/contracts?cursor=0f1e2d3c-aaaa-bbbb-cccc-1234567'],
  ['a cursor of ours for another list', `/api/v1/contracts?cursor=${'A'.repeat(39)}`],
  ['limit zero', '/api/v1/contracts?limit=0'],
  ['limit negative', '/api/v1/contracts?limit=-5'],
  ['limit not a number', '/api/v1/contracts?limit=ten'],
  ['limit with a sign', '/api/v1/contracts?limit=%2B5'],
  ['limit with a fraction', '/api/v1/contracts?limit=5.5'],
  ['POST', '/api/v1/contracts', { method: 'POST', body: '{}' }],
  ['PUT', '/api/v1/contracts', { method: 'PUT', body: '{}' }],
  ['DELETE', `/api/v1/events/${A}`, { method: 'DELETE' }],
  ['PATCH', '/api/v1/contracts', { method: 'PATCH', body: '{}' }],
];

describe('hostile requests never reach the upstream', () => {
  it.each(hostile)('%s', async (_name, path, init) => {
    const { upstream, calls } = fakeUpstream();
    const { app } = await proxyOn(upstream);
    const response = await app.request(path, init);
    expect(calls).toHaveLength(0);
    expect([400, 404, 405]).toContain(response.status);
    const body = (await response.json()) as { error: { kind: string; message: string } };
    expect(body.error.message.length).toBeGreaterThan(0);
    if (response.status === 405) expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('what is forwarded', () => {
  it('asks only from canonical values, with the server’s key and nothing of the browser’s', async () => {
    const { upstream, calls } = fakeUpstream(undefined, { contracts: [A] });
    const { app } = await proxyOn(upstream);
    const response = await app.request('/api/v1/events/0xABCD/0x0A?limit=5', {
      headers: {
        'x-api-key': 'browser-key',
        cookie: 'session=1',
        authorization: 'Bearer x',
        'x-forwarded-for': '1.2.3.4',
      },
    });
    expect(response.status).toBe(200);
    // The contracts list (only a listed contract is read), then the token's list: each
    // read whole, in the largest pages, whatever the browser asked for.
    expect(calls.map((sent) => sent.url)).toEqual([
      'https://upstream.test/base/v1/contracts?limit=5000',
      `https://upstream.test/base/v1/events/${A}/10?limit=5000`,
    ]);
    for (const sent of calls) {
      expect(sent.method).toBe('GET');
      expect(sent.headers.get('x-api-key')).toBe('secret-key-123');
      expect(sent.headers.get('cookie')).toBeNull();
      expect(sent.headers.get('authorization')).toBeNull();
      expect(sent.headers.get('x-forwarded-for')).toBeNull();
    }
  });

  it('never shows the key in a response', async () => {
    const { upstream } = fakeUpstream(() =>
      Response.json({ message: 'Forbidden' }, { status: 403 }),
    );
    const { app } = await proxyOn(upstream);
    for (const path of ['/api/v1/contracts', '/api/meta', '/api/v1/nope', '/api/v1/events/0x1']) {
      const response = await app.request(path);
      const text = await response.text();
      expect(text).not.toContain('secret-key-123');
      expect([...response.headers.values()].join(' ')).not.toContain('secret-key-123');
    }
  });

  it.each([
    ['5', 5],
    ['007', 7],
    ['5000', 5000],
    ['5001', 5000],
    ['99999999999999999999', 5000],
  ])(
    'answers a limit of %s with %i records: a larger one is lowered to the maximum',
    async (limit, count) => {
      const contracts = Array.from({ length: 5001 }, (_, i) => ({
        contract_address: `0x${i.toString(16).padStart(64, '0')}`,
      }));
      // 5001 contracts in two pages, each shorter than the largest the log asks for.
      const { upstream, calls } = fakeUpstream((request) =>
        new URL(request.url).searchParams.has('cursor')
          ? Response.json({ result: contracts.slice(4000), cursor: null })
          : Response.json({ result: contracts.slice(0, 4000), cursor: 'p2' }),
      );
      const { app } = await proxyOn(upstream);
      const response = await app.request(`/api/v1/contracts?limit=${limit}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { result: unknown[]; cursor: string | null };
      expect(body.result).toHaveLength(count);
      expect(body.cursor).not.toBeNull();
      const limits = calls.map((sent) => new URL(sent.url).searchParams.get('limit'));
      expect(limits).toEqual(['5000', '5000']);
    },
  );

  it('answers HEAD without a body', async () => {
    const { upstream, calls } = fakeUpstream();
    const { app } = await proxyOn(upstream);
    const response = await app.request('/api/v1/contracts', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
    expect(calls).toHaveLength(1);
  });
});
