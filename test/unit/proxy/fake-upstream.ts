import { getViaFetch, type Upstream } from '../../../src/server/upstream/service-client';

/**
 * An upstream that records every request and answers with a scripted response. With
 * `contracts`, the contracts list names them (one page) and `answer` gets every other
 * request: only a listed contract's lists are read through /api/v1.
 */
export function fakeUpstream(
  answer: (request: Request) => Response | Promise<Response> = () =>
    Response.json({ result: [], cursor: null }),
  options: { contracts?: readonly string[] } = {},
) {
  const calls: Request[] = [];
  const { contracts } = options;
  const upstream: Upstream = {
    source: 'real',
    baseUrl: 'https://upstream.test/base',
    apiKey: 'secret-key-123',
    description: 'fake upstream',
    get: getViaFetch(async (request) => {
      calls.push(request);
      if (contracts && isContractsList(request)) {
        const result = contracts.map((address) => ({ contract_address: address }));
        return Response.json({ result, cursor: null });
      }
      return answer(request);
    }),
  };
  /** The requests for anything but the contracts list. */
  const listCalls = () => calls.filter((request) => !isContractsList(request));
  return { upstream, calls, listCalls };
}

export const isContractsList = (request: Request) =>
  new URL(request.url).pathname.endsWith('/v1/contracts');
