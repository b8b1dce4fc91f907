import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Plugin } from 'vite';
import { loadConfig } from './config';
import { createUpstream } from './upstream/create-upstream';
import { openServices } from './open-services';
import { composeServer } from './compose';

/**
 * Mounts the one API proxy into `vite` dev and `vite preview`, so development talks to
 * exactly the code that production runs. The upstream is created on the first API call,
 * which keeps Vite's start-up instant.
 */
export function apiProxyPlugin(): Plugin {
  let listener: Promise<ReturnType<typeof getRequestListener>> | undefined;
  const open = async () => {
    if (existsSync('.env')) process.loadEnvFile('.env');
    const config = loadConfig(process.env);
    for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
    const services = await openServices(config);
    const upstream = createUpstream(services.upstream);
    console.log(`API proxy: ${upstream.description}; database: ${services.description}`);
    // Dev and preview serve one developer and the e2e suite, all from loopback: the
    // per-client limit applies only when asked for. The gate still protects the upstream.
    const rateLimit = process.env.RATE_LIMIT_PER_MINUTE
      ? config.proxy.rateLimit
      : { ...config.proxy.rateLimit, perMinute: 0 };
    const options = { upstream, ...config.proxy, ...services.proxy, rateLimit };
    return getRequestListener(composeServer(options).app.fetch);
  };
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!req.url?.startsWith('/api/')) return next();
    listener ??= open();
    listener.then(
      (serve) => void serve(req, res),
      (error: Error) => {
        res.statusCode = 500;
        res.end(`The API proxy could not start: ${error.message}`);
      },
    );
  };
  return {
    name: 'token-events-api-proxy',
    configureServer: (server) => {
      server.middlewares.use(handle);
    },
    configurePreviewServer: (server) => {
      server.middlewares.use(handle);
    },
  };
}
