import { parseArgs } from 'node:util';
import { serve } from '@hono/node-server';
import { generateDataset, startAnchor } from './dataset';
import { PROFILES, type Profile } from './records';
import { generateScaleData } from './scale';
import { createSampleService } from './service';

/**
 * Runs the sample Token Events Service on its own port, with the control endpoints on:
 *   tsx src/server/sample-service/cli.ts --port 8787 --host 127.0.0.1 --key dev --seed 1 \
 *     --profile deployed [--contracts N --events N] [--latency MS] [--anchor SECONDS] [--live off]
 *     [--rate 5 --burst 2]   (the basic plan's throttle: 429 beyond it)
 *     [--shape scale --events 10000000 --contracts 5000]   (scale.ts: made per event, not held)
 * The timeline ends at the start time rounded down to the hour unless --anchor names its end
 * (unix seconds); new events keep arriving unless --live off (never on the scale shape).
 */

const USAGE =
  'usage: tsx src/server/sample-service/cli.ts [--port 8787] [--host 127.0.0.1] [--key dev] ' +
  '[--seed 1] [--profile deployed|documented] [--contracts N] [--events N] [--latency MS] ' +
  '[--anchor UNIX_SECONDS] [--live on|off] [--rate PER_SECOND --burst N] ' +
  '[--shape default|scale] (scale: 5,000 contracts and 10,000,000 events unless given)';

function main(): void {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      key: { type: 'string', default: 'dev' },
      seed: { type: 'string', default: '1' },
      profile: { type: 'string', default: 'deployed' },
      contracts: { type: 'string' },
      events: { type: 'string' },
      latency: { type: 'string' },
      rate: { type: 'string' },
      burst: { type: 'string' },
      anchor: { type: 'string' },
      live: { type: 'string' },
      shape: { type: 'string', default: 'default' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const profile = values.profile as Profile;
  if (!PROFILES.includes(profile))
    throw new Error(`--profile must be one of ${PROFILES.join(', ')}`);
  const number = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 0)
      throw new Error(`--${name} must be a non-negative integer`);
    return value;
  };
  const seed = number('seed', values.seed) ?? 1;
  const port = number('port', values.port) ?? 8787;
  const latencyMs = number('latency', values.latency);
  const rate = number('rate', values.rate);
  const throttle = rate
    ? { perSecond: rate, burst: number('burst', values.burst) ?? 1 }
    : undefined;
  const anchor = number('anchor', values.anchor) ?? startAnchor();
  if (values.shape !== 'default' && values.shape !== 'scale') {
    throw new Error('--shape must be default or scale');
  }
  const scale = values.shape === 'scale';
  const liveFlag = values.live ?? (scale ? 'off' : 'on');
  if (liveFlag !== 'on' && liveFlag !== 'off') throw new Error('--live must be on or off');
  if (scale && liveFlag === 'on') throw new Error('--live on needs the default shape');
  const live = liveFlag === 'on';

  const started = performance.now();
  const size = {
    seed,
    contracts: number('contracts', values.contracts),
    events: number('events', values.events),
    anchor,
  };
  const dataset = scale ? generateScaleData(size) : generateDataset(size);
  const generatedMs = Math.round(performance.now() - started);
  const rssMb = Math.round(process.memoryUsage.rss() / 2 ** 20);
  const service = createSampleService({
    apiKey: values.key,
    profile,
    dataset,
    control: true,
    live,
    faults: latencyMs ? { latencyMs } : undefined,
    throttle,
  });

  const server = serve({ fetch: service.app.fetch, port, hostname: values.host }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(
      `Sample Token Events Service (${profile} profile, ${values.shape} shape, seed ${seed}: ` +
        `${dataset.contracts.length} contracts, ${dataset.eventCount} events, generated in ` +
        `${generatedMs} ms, ${rssMb} MB resident)\n` +
        `  timeline ending ${new Date(anchor * 1000).toISOString()} (--anchor ${anchor}), ` +
        `live arrivals ${live ? 'on' : 'off'}` +
        (throttle ? `, throttled at ${throttle.perSecond}/s (burst ${throttle.burst})` : '') +
        '\n' +
        `  listening on http://${host}:${info.port}/v1\n` +
        `  send the header  x-api-key: ${values.key}\n` +
        `  faults: GET/PUT /_control/faults, stats: GET /_control/stats, ` +
        `forget every cursor: POST /_control/cursors/forget`,
    );
  });
  const stop = (signal: NodeJS.Signals): void => {
    console.log(`${signal}: stopping`);
    service.close();
    server.close(() => process.exit(0));
    // Keep-alive connections would hold close() open; do not wait for them long.
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

try {
  main();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(2);
}
