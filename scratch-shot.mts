import { chromium } from '@playwright/test';
const [url, name, widths = '1440'] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
for (const w of widths.split(',')) {
  for (const scheme of ['light', 'dark'] as const) {
    const page = await browser.newPage({ viewport: { width: Number(w), height: 1000 }, colorScheme: scheme });
    const errors: string[] = [];
    page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
    await page.goto(url!);
    await page.waitForTimeout(Number(process.env.WAIT ?? 2500));
    if (process.env.SCROLL) await page.evaluate((y) => window.scrollTo(0, y), Number(process.env.SCROLL));
    await page.screenshot({ path: `/tmp/shots/${name}-${w}-${scheme}.png`, fullPage: process.env.FULL === '1' });
    if (errors.length) console.log(w, scheme, errors.slice(0, 3));
    await page.close();
    if (process.env.ONE === '1') break;
  }
}
await browser.close();
