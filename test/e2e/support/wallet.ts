import type { APIRequestContext } from '@playwright/test';
import { expect } from './fixtures';
import type { ContractInfo } from './servers';

/**
 * A wallet of the sample service, from an indexed contract. The e2e servers index nothing
 * in the background (INDEX_BACKGROUND_SHARE=0): a question that needs the contract's whole
 * history (a sort by price) starts the indexer on it, and its figures say when it is done.
 */
export async function indexedWallet(
  request: APIRequestContext,
  contract: ContractInfo,
): Promise<string> {
  const started = await request.get(`/api/collections/${contract.address}/events?sort=-price`);
  expect(started.ok(), `${started.status()} ${await started.text()}`).toBe(true);
  await expect(async () => {
    const answer = await request.get(`/api/collections/${contract.address}`);
    expect(answer.ok()).toBe(true);
    const body = (await answer.json()) as { coverage: { complete: boolean } };
    expect(body.coverage.complete).toBe(true);
  }).toPass({ timeout: 120_000, intervals: [500, 1000, 2000] });
  const sales = await request.get(`/api/collections/${contract.address}/events?kind=sale&limit=20`);
  const { events } = (await sales.json()) as { events: { to: string }[] };
  const buyer = events.map((event) => event.to).find((to) => !/^0x0*$/.test(to));
  if (!buyer) throw new Error(`No sale with a buyer in ${contract.name}`);
  return buyer;
}
