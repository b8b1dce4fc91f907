import { getViaFetch, type Upstream } from '../../../src/server/upstream/service-client';

/** An upstream that records every request and answers with a scripted response. */
export function fakeUpstream(
  answer: (request: Request) => Response | Promise<Response> = () =>
    Response.json({ result: [], cursor: null }),
) {
  const calls: Request[] = [];
  const upstream: Upstream = {
    source: 'real',
    baseUrl: 'https://upstream.test/base',
    apiKey: 'secret-key-123',
    description: 'fake upstream',
    get: getViaFetch(async (request) => {
      calls.push(request);
      return answer(request);
    }),
  };
  return { upstream, calls };
}
