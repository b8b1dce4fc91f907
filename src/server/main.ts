import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config';
import { createUpstream } from './upstream/create-upstream';
import { createServerApp } from './http/app';
import { trackForShutdown } from './http/graceful-shutdown';
import { nodeGzip } from './node-gzip';
import { createProxy } from './proxy/app';
import type { RequestLog } from './proxy/request-log';

// Straight to stdout: console.log would also check colours and format on every request.
const logLine = (line: RequestLog) => {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...line }) + '\n');
};

/** Starts the production server on the built client in `dist/client`. */
export function startServer(clientDir = resolve('dist/client')) {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const upstream = createUpstream(config.upstream);
  const proxy = createProxy({ upstream, ...config.proxy, log: logLine, gzip: nodeGzip });
  const app = createServerApp({ proxy, clientDir, log: logLine });
  const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
    const host = info.address.includes(':') ? `[${info.address}]` : info.address;
    console.log(`Token activity dashboard on http://${host}:${info.port}/`);
    console.log(`Data: ${upstream.description}`);
  }) as Server;

  const { shutdownTimeoutMs } = config;
  const tracked = trackForShutdown(server);
  const shutdown = (signal: string) => {
    void tracked.shutdown().then(() => process.exit(0));
    // Said once new connections are already refused.
    console.log(`${signal}: finishing requests in flight, then exiting.`);
    setTimeout(() => {
      console.error(`Requests still running after ${shutdownTimeoutMs} ms: exiting anyway.`);
      server.closeAllConnections();
      process.exit(1);
    }, shutdownTimeoutMs).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return { server, proxy };
}
