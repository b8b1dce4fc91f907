import type { Page } from '@playwright/test';
import { expect } from './fixtures';
import type { ProfileServers } from './servers';
import { contractsTable, dataRows, eventsTable, loadStatus, rankingStatus } from './ui';

/** The app's pages, each with a URL and the sign that it has finished loading. */
export interface AppPage {
  name: string;
  path(servers: ProfileServers): string;
  ready(page: Page, servers: ProfileServers): Promise<void>;
}

export const APP_PAGES: AppPage[] = [
  {
    name: 'contracts',
    path: () => '/contracts',
    ready: async (page) => {
      await expect(rankingStatus(page)).toBeVisible();
      await expect(dataRows(contractsTable(page)).first()).toBeVisible();
    },
  },
  {
    name: 'contract-events',
    path: (servers) => `/contracts/${servers.contracts.deep[0]!.address}`,
    ready: async (page) => {
      await expect(loadStatus(page)).toHaveText(/of [\d,]+ events shown/);
      await expect(dataRows(eventsTable(page)).first()).toBeVisible();
    },
  },
  {
    name: 'token-history',
    path: (servers) => `/contracts/${servers.token.contract}/tokens/${servers.token.id}`,
    ready: async (page, servers) => {
      await expect(loadStatus(page)).toHaveText(`all ${servers.token.rows} events loaded`);
    },
  },
  {
    name: 'bad-url',
    path: () => '/contracts/0xnot-an-address',
    ready: async (page) => {
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        'This is not a contract address',
      );
    },
  },
];

/**
 * Waits until the page has drawn everything it was loading: nothing busy (placeholder rows,
 * figures, charts, a table being updated: each says `aria-busy`), its fonts loaded and the
 * images in view decoded. What moves the page after this moves it for good.
 */
export async function drawnInFull(page: Page): Promise<void> {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(async () => {
    await document.fonts.ready;
  });
  await imagesInViewDecoded(page);
}

/** Waits until the images in view are decoded, so a screenshot or a contrast check sees them. */
export async function imagesInViewDecoded(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    [...document.images]
      .filter((image) => image.getBoundingClientRect().top < window.innerHeight)
      .every((image) => image.complete),
  );
}
