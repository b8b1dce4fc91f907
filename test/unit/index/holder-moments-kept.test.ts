import { describe, expect, it } from 'vitest';
import { generateDataset } from '../../../src/server/sample-service';
import { useIndexedSample } from '../../support/indexed-sample';

/**
 * The holders answer keeps a moment far from any kept one, on the primary, once the
 * collection's history is whole; while older pages still come in (coverage not whole),
 * each would drop it, so none is kept. Either way the answer is the same.
 */
const dataset = generateDataset({ seed: 5, contracts: 1, events: 8_000 });
const contract = dataset.contracts[0]!;
const base = `/api/collections/${contract.address}`;

const setUp = useIndexedSample(dataset);

describe('moments kept by the holders answer', () => {
  it('are kept once the history is whole, and not while it is being read', async () => {
    const { proxy, pool, get } = await setUp();
    await proxy.indexer!.whole(contract.address).done;
    const kept = async () =>
      Number((await pool.query('SELECT count(*) AS n FROM idx_holder_moments')).rows[0].n);
    const { rows } = await pool.query<{ oldest: string; newest: string }>(
      'SELECT oldest_ts AS oldest, newest_ts AS newest FROM idx_contracts WHERE address = $1',
      [contract.address],
    );
    const day = (share: number) => {
      const [oldest, newest] = [Number(rows[0]!.oldest), Number(rows[0]!.newest)];
      return new Date((oldest + (newest - oldest) * share) * 1000).toISOString().slice(0, 10);
    };

    const whole = await get(`${base}/holders?asOf=${day(0.5)}&limit=5`);
    expect(whole.body.coverage.complete).toBe(true);
    expect(await kept()).toBe(1);

    // As if older pages were still to come.
    await pool.query('UPDATE idx_contracts SET complete = false');
    const reading = await get(`${base}/holders?asOf=${day(0.9)}&limit=5`);
    expect(reading.body.coverage.complete).toBe(false);
    expect(await kept()).toBe(1);
    await pool.query('UPDATE idx_contracts SET complete = true');
    const again = await get(`${base}/holders?asOf=${day(0.9)}&limit=5`);
    expect(await kept()).toBe(2);
    const { coverage: _a, ...answerReading } = reading.body;
    const { coverage: _b, ...answerWhole } = again.body;
    expect(answerReading).toEqual(answerWhole);
  }, 120_000);
});
