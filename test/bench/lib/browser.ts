import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, DEBIAN_CHROMIUM, findChromium } from '../../e2e/support/chromium';

/** The same system Chromium, found the same way, as the browser tests use. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium().path ?? DEBIAN_CHROMIUM,
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  });
}
