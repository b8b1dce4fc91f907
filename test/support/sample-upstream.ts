import type { SampleService } from '../../src/server/sample-service';
import { getViaFetch, type Upstream } from '../../src/server/upstream/service-client';

/** An in-process sample service as the proxy's upstream, with the key it was made with. */
export function sampleUpstream(service: Pick<SampleService, 'fetch'>, apiKey = 'k'): Upstream {
  return {
    source: 'sample',
    baseUrl: 'http://sample.test',
    apiKey,
    description: 'sample',
    get: getViaFetch((request) => service.fetch(request)),
  };
}
