import { afterEach } from 'vitest';
import {
  createSampleService,
  type Dataset,
  type Profile,
  type SampleService,
} from '../../src/server/sample-service';
import { indexedProxy } from './indexed-proxy';
import { usePostgresDatabases } from './postgres-databases';
import { sampleUpstream } from './sample-upstream';

/**
 * For a test file (call it at its top level): `setUp(profile)` gives each test a new
 * database, the sample service over `dataset` and the proxy on both (`indexedProxy`, a
 * list's head read again at most once a minute), all closed after the test.
 */
export function useIndexedSample(dataset: Dataset) {
  const databases = usePostgresDatabases();
  const opened: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });
  return async function setUp(profile: Profile = 'deployed') {
    const database = await databases.database();
    opened.push(database.drop);
    const service = createSampleService({ apiKey: 'k', profile, dataset });
    const { proxy } = await indexedProxy({
      url: database.url,
      upstream: sampleUpstream(service),
      cleanups: opened,
      settings: { headIntervalMs: 60_000 },
    });
    return { proxy, service };
  };
}

/** The service's records of a contract, walked directly: what a figure is checked against. */
export async function rawRecords(service: Pick<SampleService, 'fetch'>, contract: string) {
  const records: Record<string, string>[] = [];
  let cursor: string | null | undefined = null;
  do {
    const response = await service.fetch(
      `/v1/events/${contract}?limit=5000${cursor ? `&cursor=${cursor}` : ''}`,
      { headers: { 'x-api-key': 'k' } },
    );
    const body = (await response.json()) as {
      result: Record<string, string>[];
      cursor?: string | null;
    };
    records.push(...body.result);
    cursor = body.cursor;
  } while (cursor);
  return records;
}
