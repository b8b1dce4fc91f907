import {
  createSampleService,
  generateDataset,
  type SampleService,
} from '../../../src/server/sample-service';

/**
 * The sample service in this process, default dataset (seed 1), for the benchmarks that
 * measure code rather than a network hop. Generated once, on first use.
 */
export const IN_PROCESS_KEY = 'bench-in-process';
let service: SampleService | undefined;

export function inProcessService(): SampleService {
  service ??= createSampleService({
    apiKey: IN_PROCESS_KEY,
    dataset: generateDataset({ seed: 1 }),
  });
  return service;
}

export async function getText(path: string): Promise<string> {
  const response = await inProcessService().fetch(path, {
    headers: { 'x-api-key': IN_PROCESS_KEY },
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text.slice(0, 200)}`);
  return text;
}
