import { chromium, type Browser } from '@playwright/test';

/** Debian's Chromium (Playwright's own browser download does not work here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    timeout: 60_000,
  });
}
