import type { Server } from 'node:http';
import { resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { configFromEnvironment, type ServerConfig } from './config';
import { createServerApp } from './http/server-app';
import { connectionCheckOptions, limitConnections } from './http/connection-limits';
import { trackForShutdown } from './http/graceful-shutdown';
import { composeServer } from './compose';
import type { RequestLog } from './proxy/request-log';
import { openServices, type Services } from './open-services';
import { createUpstream } from './upstream/create-upstream';

// Straight to stdout: console.log would also check colours and format on every request.
const logLine = (line: RequestLog) => {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...line }) + '\n');
};

// After the shutdown timeout, how long the 503s may take to reach their clients.
const SHUTDOWN_GRACE_MS = 5_000;

/** Starts the production server on the built client in `dist/client`. */
export async function startServer(clientDir = resolve('dist/client')) {
  const config = configFromEnvironment();
  for (const warning of config.warnings) console.warn(`Warning: ${warning}`);
  let services: Services;
  try {
    services = await openServices(config, (line) => console.log(line));
  } catch (error) {
    console.error(`The database cannot be opened: ${(error as Error).message}`);
    process.exit(1);
  }
  const running = listen(config, clientDir, services, logLine, (host, port) => {
    console.log(`Token activity dashboard on http://${host}:${port}/`);
    console.log(`Data: ${running.upstream.description}`);
    console.log(`Database: ${services.description}`);
  });
  // One line that says what is wrong, not a stack trace.
  running.server.once('error', (error: NodeJS.ErrnoException) => {
    const where = `${config.host}:${config.port}`;
    console.error(
      error.code === 'EADDRINUSE'
        ? `Port ${config.port} is taken (${where}): another program listens there. Stop it or set PORT to another port.`
        : error.code === 'EACCES'
          ? `The server may not listen on ${where}: permission denied. Choose a PORT above 1023.`
          : `The server cannot listen on ${where}: ${error.message}`,
    );
    void Promise.resolve(running.proxy.indexer.stop())
      .then(() => services.close())
      .finally(() => process.exit(1));
  });

  const { shutdownTimeoutMs } = config;
  const shutdown = (signal: string) => {
    void running
      .stop(shutdownTimeoutMs)
      .then(() => services.close())
      .then(() => process.exit(0));
    // Said once new connections are already refused.
    console.log(
      `${signal}: finishing requests in flight, then exiting; those still waiting for the ` +
        `upstream after ${shutdownTimeoutMs} ms are answered 503.`,
    );
    setTimeout(() => {
      console.error('Responses still unsent after the shutdown timeout: exiting anyway.');
      running.server.closeAllConnections();
      process.exit(1);
    }, shutdownTimeoutMs + SHUTDOWN_GRACE_MS).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return { server: running.server, proxy: running.proxy };
}

/**
 * The production server on `config`: the app, its connection limits and its shutdown.
 * `onListening` gets the host (bracketed when IPv6) and port once it listens.
 */
export function listen(
  config: ServerConfig,
  clientDir: string,
  services: Services,
  log?: (line: RequestLog) => void,
  onListening?: (host: string, port: number) => void,
) {
  const upstream = createUpstream(services.upstream);
  const origins = { publicUrl: config.publicUrl, listen: { host: config.host, port: config.port } };
  const proxy = composeServer({ upstream, ...config.proxy, ...services.proxy, log, origins });
  proxy.indexer.start();
  proxy.deliverer?.start();
  const { trustedProxyHops } = config.proxy;
  const metrics = services.monitoring.registry;
  const app = createServerApp({
    proxy,
    clientDir,
    log,
    trustedProxyHops,
    metrics,
    share: config.share,
    ...origins,
  });
  const server = serve(
    {
      fetch: app.fetch,
      hostname: config.host,
      port: config.port,
      serverOptions: connectionCheckOptions(config.connections),
    },
    (info) =>
      onListening?.(info.address.includes(':') ? `[${info.address}]` : info.address, info.port),
  ) as Server;
  // Behind proxies of ours every connection comes from one of them: no per-address cap.
  const perAddress = trustedProxyHops === 0;
  limitConnections(
    server,
    config.connections,
    perAddress ? config.share.inFlightPerClient : undefined,
  );
  const tracked = trackForShutdown(server);

  return {
    server,
    proxy,
    upstream,
    /**
     * Stops accepting, closes idle connections at once, lets requests in flight run for
     * `deadlineMs`, then answers those still waiting for the upstream 503. Resolves once
     * every request has been answered and every connection is closed.
     */
    stop(deadlineMs: number): Promise<void> {
      const closed = tracked.shutdown();
      // Live streams never end by themselves: ended now, their pages open them again
      // on another server (or this one, restarted) from their last event.
      proxy.live.close();
      const timer = setTimeout(() => void proxy.stop(), deadlineMs);
      return closed.finally(() => {
        clearTimeout(timer);
        return Promise.all([proxy.indexer.stop(), proxy.deliverer?.stop()]);
      });
    },
  };
}
