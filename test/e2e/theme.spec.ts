import { expect, test } from './support/fixtures';

/*
 * The theme chosen in Settings is on the page from its first paint: the script that
 * applies it runs before the app's code, which here never comes.
 */
test('a dark theme chosen on a light system is there before the app’s code runs', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.addInitScript(() =>
    localStorage.setItem('token-activity-settings', JSON.stringify({ theme: 'dark' })),
  );
  // The app's code comes empty: what is drawn is the HTML, its CSS and the theme script.
  await page.route('**/assets/*.js', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '' }),
  );
  await page.goto('/contracts');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await page.evaluate(
    () => getComputedStyle(document.documentElement).backgroundColor,
  );
  // The dark theme's --bg, #111318.
  expect(background).toBe('rgb(17, 19, 24)');
});
