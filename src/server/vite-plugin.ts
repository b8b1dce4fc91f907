import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { Plugin } from 'vite';
import { loadConfig } from './config';
import { createUpstream } from './upstream/create-upstream';
import { nodeGzip } from './node-gzip';
import { createProxyApp } from './proxy/app';

/**
 * Mounts the one API proxy into `vite` dev and `vite preview`, so development talks to
 * exactly the code that production runs. The upstream is created on the first API call,
 * which keeps Vite's start-up instant.
 */
export function apiProxyPlugin(): Plugin {
  let listener: ReturnType<typeof getRequestListener> | undefined;
  const handle = (req: IncomingMessage, res: ServerResponse, next: () => void) => {
    if (!req.url?.startsWith('/api/')) return next();
    if (!listener) {
      if (existsSync('.env')) process.loadEnvFile('.env');
      const config = loadConfig(process.env);
      for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
      const upstream = createUpstream(config.upstream);
      console.log(`API proxy: ${upstream.description}`);
      // Dev and preview serve one developer and the e2e suite, all from loopback: the
      // per-client limit applies only when asked for. The gate still protects the upstream.
      const rateLimit = process.env.RATE_LIMIT_PER_MINUTE
        ? config.proxy.rateLimit
        : { ...config.proxy.rateLimit, perMinute: 0 };
      listener = getRequestListener(
        createProxyApp({ upstream, ...config.proxy, rateLimit, gzip: nodeGzip }).fetch,
      );
    }
    void listener(req, res);
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
