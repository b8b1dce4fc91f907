import type { Running } from './lib/processes';
import type { Report } from './lib/report';
import type { Deadline } from './lib/stats';

/** What every benchmark gets from `run.ts`: the report, the deadline and the servers. */
export interface BenchContext {
  report: Report;
  deadline: Deadline;
  /** The benchmark's own production build of the client. */
  clientDir: string;
  /** The standalone sample service, default dataset (seed 1, 320,000 events). */
  sample: Running;
  sampleKey: string;
  /** The production server over `sample`: `/api/v1` served from its record log. */
  proxy: Running;
  /** Vite's built-in `preview.proxy` over `sample`, with a keep-alive upstream agent. */
  vite: Running;
  /** Bench 1's floor: bare node:http over `sample` that reads and parses each page. */
  validatingFloor: Running;
  log: (line: string) => void;
}

/** Upstream requests the sample service has received so far (`/_control/stats`). */
export async function upstreamRequests(context: BenchContext): Promise<number> {
  const response = await fetch(`${context.sample.url}/_control/stats`, {
    headers: { 'x-api-key': context.sampleKey },
  });
  const body = (await response.json()) as { requests: number };
  return body.requests;
}
