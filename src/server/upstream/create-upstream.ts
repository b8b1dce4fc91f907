import { randomBytes } from 'node:crypto';
import type { UpstreamConfig } from '../config';
import { nodeHttpGet } from './node-http-get';
import { getViaFetch, type Upstream } from './service-client';
import { createSampleService } from '../sample-service';

/** The real service over HTTP, or the embedded sample service in-process with a fresh key. */
export function createUpstream(config: UpstreamConfig): Upstream {
  if (config.kind === 'real') {
    return {
      source: 'real',
      baseUrl: config.url,
      apiKey: config.apiKey,
      get: nodeHttpGet(config.url),
      // Shown to every visitor: says which service, not where it lives.
      description: 'the Token Events Service',
    };
  }
  // A key per process: the sample service checks it exactly as the real one would.
  const apiKey = randomBytes(18).toString('base64url');
  const service = createSampleService({
    apiKey,
    profile: config.profile,
    seed: config.seed,
    anchor: config.anchor,
    live: config.live,
  });
  return {
    source: 'sample',
    baseUrl: 'http://sample-service.internal',
    apiKey,
    get: getViaFetch((request) => service.fetch(request)),
    description: `embedded sample service (${config.profile} profile, seed ${config.seed})`,
  };
}
