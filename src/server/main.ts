import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { ConfigError, loadConfig } from './config';
import { createUpstream } from './create-upstream';
import { createServerApp } from './http/app';
import { createProxyApp, type RequestLog } from './proxy/app';

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
  const proxy = createProxyApp({
    upstream,
    timeoutMs: config.timeoutMs,
    log: (line: RequestLog) =>
      console.log(JSON.stringify({ time: new Date().toISOString(), ...line })),
  });
  const app = createServerApp({ proxy, clientDir });
  const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, (info) => {
    const host = info.address.includes(':') ? `[${info.address}]` : info.address;
    console.log(`Token activity dashboard on http://${host}:${info.port}/`);
    console.log(`Data: ${upstream.description}`);
  });

  // Stop accepting, let in-flight requests finish, then exit.
  const shutdown = () => {
    console.log('Shutting down…');
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}
