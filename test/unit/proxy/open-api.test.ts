import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { API_ROUTES, type SampleKind } from '../../../src/server/api/api-routes';
import { PREVIEW_PREFIX } from '../../../src/server/preview/previews';
import { imageTarget } from '../../../src/server/preview/targets';
import { matchApiRequest } from '../../../src/server/proxy/route-match';
import { fromSocket } from '../../support/socket-bindings';
import { fakeUpstream } from './fake-upstream';
import { useProxies } from './proxy-harness';

const { proxyOn } = useProxies();

const A = '0x' + '0'.repeat(60) + 'abcd';
const SAMPLES: Record<SampleKind, string> = {
  collection: A,
  wallet: '0x' + '0'.repeat(60) + 'beef',
  token: '7',
  transaction: '0x' + '0'.repeat(60) + 'cafe',
  'preview-page': 'holders',
  webhook: '1',
  'collection-page': `http://localhost/contracts/${A}`,
};

interface Operation {
  parameters: { name: string; in: string; 'x-sample'?: SampleKind }[];
  security?: unknown[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
}
interface Document {
  paths: Record<string, Partial<Record<'get' | 'post' | 'delete', Operation>>>;
}

const openProxy = async (options: Parameters<typeof proxyOn>[1] = {}) => {
  const fake = fakeUpstream(undefined, { contracts: [A] });
  return { ...(await proxyOn(fake.upstream, options)), calls: fake.calls };
};

async function documentOf(app: Awaited<ReturnType<typeof openProxy>>['app']) {
  const response = await app.request('/api/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

/** A documented path with each path parameter, and each query one with a sample kind, filled. */
function filled(path: string, parameters: Operation['parameters']) {
  const query = new URLSearchParams();
  for (const each of parameters) {
    if (each.in === 'query' && each['x-sample']) query.set(each.name, SAMPLES[each['x-sample']]);
  }
  const filledPath = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const parameter = parameters.find((each) => each.in === 'path' && each.name === name);
    expect(parameter?.['x-sample'], `${path}: ${name}`).toBeDefined();
    return SAMPLES[parameter!['x-sample']!];
  });
  return query.size > 0 ? `${filledPath}?${query}` : filledPath;
}

describe('the API document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const { app } = await openProxy();
    const document = await documentOf(app);
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every /api route the app mounts, and only those', async () => {
    const { app } = await openProxy();
    const { paths } = await documentOf(app);
    const documented = Object.keys(paths);
    const mounted = app.routes
      .filter((route) => route.method === 'GET' && route.path.startsWith('/api/'))
      .map((route) => route.path.replace(/:([^/]+)/g, '{$1}'));
    // Other methods: each one mounted is documented under its path, and the other way round.
    const written = app.routes
      .filter(
        (route) => ['POST', 'DELETE'].includes(route.method) && route.path.startsWith('/api/'),
      )
      .map((route) => `${route.method} ${route.path.replace(/:([^/]+)/g, '{$1}')}`);
    const writesDocumented = Object.entries(paths).flatMap(([path, operations]) =>
      (['post', 'delete'] as const)
        .filter((method) => operations[method])
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(written.sort()).toEqual(writesDocumented.sort());
    expect(writesDocumented).toEqual(
      expect.arrayContaining(['POST /api/webhooks', 'DELETE /api/webhooks/{id}']),
    );
    const wildcards = mounted.filter((path) => path.endsWith('/*'));
    for (const path of mounted.filter((each) => !each.endsWith('/*'))) {
      expect(documented, path).toContain(path);
    }
    for (const wildcard of wildcards) {
      const prefix = wildcard.slice(0, -1);
      expect(
        documented.some((path) => path.startsWith(prefix)),
        wildcard,
      ).toBe(true);
    }
    // Whatever is documented is answered: a route of its own, the pictures' wildcard, or
    // the service's lists (the catch-all's allow-list).
    for (const path of documented.filter((each) => paths[each]!.get)) {
      const exact = mounted.includes(path);
      const underWildcard = wildcards.some((wildcard) => path.startsWith(wildcard.slice(0, -1)));
      const serviceList = path.startsWith('/api/v1/');
      expect(exact || underWildcard || serviceList, path).toBe(true);
    }
  });

  it('answers every documented route with its samples, never "No such API route"', async () => {
    const { app } = await openProxy();
    const document = await documentOf(app);
    for (const [path, { get }] of Object.entries(document.paths)) {
      // Reading routes open to all; the operator's (webhooks) are the webhook tests' work.
      if (!get || get.security) continue;
      const url = filled(path, get.parameters);
      if (url.startsWith(`${PREVIEW_PREFIX}/`)) {
        // Drawing cards is the previews' tests' work: here, that the path is one of theirs.
        expect(imageTarget(url.slice(PREVIEW_PREFIX.length)), url).not.toBeNull();
        continue;
      }
      if (url.startsWith('/api/v1/')) {
        expect(matchApiRequest(new URL(url, 'http://localhost')).kind, url).toBe('matched');
      }
      const response = await app.request(url);
      if (url.startsWith('/api/live/')) {
        // A live stream never ends: its start is the answer.
        expect(response.status, url).toBe(200);
        expect(response.headers.get('content-type'), url).toBe('text/event-stream');
        await response.body?.cancel();
        continue;
      }
      const text = await response.text();
      expect(text, url).not.toContain('No such API route');
      // The collection images of a contract without one are 404, in the error body.
      expect(response.status, `${url}: ${text.slice(0, 200)}`).toBe(
        url.startsWith('/api/images/') ? 404 : 200,
      );
    }
  });

  it('documents the webhook routes: the operator token, the body schema, and off without it', async () => {
    const { app } = await openProxy();
    const { paths } = await documentOf(app);
    const create = paths['/api/webhooks']!.post!;
    expect(create.security).toEqual([{ operatorToken: [] }]);
    const body = create.requestBody!.content['application/json']!.schema;
    expect(Object.keys(body.properties ?? {})).toEqual(['url', 'rule']);
    expect(paths['/api/webhooks']!.get!.security).toEqual([{ operatorToken: [] }]);
    expect(paths['/api/webhooks/{id}/deliveries']!.get).toBeDefined();
    // This proxy has no WEBHOOK_TOKEN: the routes say how to turn them on.
    const off = await app.request('/api/webhooks');
    expect(off.status).toBe(404);
    expect(await off.text()).toContain('WEBHOOK_TOKEN');
  });

  it('lists each route with its query parameters from the schemas that check them', async () => {
    const { app } = await openProxy();
    const document = await documentOf(app);
    const events = document.paths[API_ROUTES.collectionEvents.path]!.get!.parameters;
    expect(events.filter((p) => p.in === 'query').map((p) => p.name)).toEqual(
      expect.arrayContaining(['kind', 'from', 'to', 'currency', 'sort', 'limit', 'cursor']),
    );
    // A parameter the document lists is one the route takes; one it does not is refused.
    const withAll = await app.request(`/api/collections/${A}/events?sort=-price&limit=5`);
    expect(withAll.status).toBe(200);
    const unknown = await app.request(`/api/collections/${A}/events?colour=red`);
    expect(unknown.status).toBe(400);
  });
});

describe('ETag and 304', () => {
  it('tags a JSON answer and answers 304 without a body to its tag', async () => {
    const { app } = await openProxy();
    // A wallet's answers: the same while nothing is indexed (a collection's coverage moves).
    const wallet = `/api/wallets/${SAMPLES.wallet}/events`;
    const first = await app.request(wallet);
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    const again = await app.request(wallet, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
    // Another answer, another tag: a stale tag gets the whole answer.
    const other = await app.request(`/api/wallets/${SAMPLES.wallet}`, {
      headers: { 'if-none-match': etag! },
    });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
    expect(await other.json()).toMatchObject({ collections: [] });
  });

  it('leaves streamed exports whole and untagged', async () => {
    const { app } = await openProxy();
    for (const path of [
      `/api/collections/${A}/export?format=json`,
      `/api/collections/${A}/holders/export`,
    ]) {
      const response = await app.request(path, { headers: { 'if-none-match': '*' } });
      expect(response.status, path).toBe(200);
      expect(response.headers.get('etag')).toBeNull();
      expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
      expect((await response.text()).length).toBeGreaterThan(0);
    }
  });
});

describe('CORS', () => {
  const limited = () => openProxy({ proxy: { rateLimit: { perMinute: 60, burst: 3 } } });
  const preflight = {
    method: 'OPTIONS',
    headers: {
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'if-none-match',
    },
  };

  it('lets any origin read answers, errors too, without credentials', async () => {
    const { app } = await openProxy();
    for (const path of ['/api/meta', `/api/collections/${A}?wash=maybe`, '/api/nothing']) {
      const response = await app.request(path, {
        headers: { origin: 'https://elsewhere.example' },
      });
      expect(response.headers.get('access-control-allow-origin'), path).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-expose-headers')).toContain('ETag');
    }
  });

  it('answers a preflight for reading, and never asks the service for it', async () => {
    const { app, calls } = await openProxy();
    const before = calls.length;
    const response = await app.request('/api/v1/contracts', preflight);
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/if-none-match/i);
    expect(calls.length).toBe(before);
  });

  it('counts preflights against the per-client limit, and its refusal can be read', async () => {
    const { app } = await limited();
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push((await app.request('/api/meta', preflight, fromSocket('1.2.3.4'))).status);
    }
    expect(statuses).toEqual([204, 204, 204, 429]);
    const refused = await app.request('/api/meta', {}, fromSocket('1.2.3.4'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect((await app.request('/api/meta', {}, fromSocket('5.6.7.8'))).status).toBe(200);
  });

  it('still refuses every method but GET and HEAD with 405', async () => {
    const { app } = await openProxy();
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await app.request('/api/meta', { method, body: '{}' });
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
  });
});
