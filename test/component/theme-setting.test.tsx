import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { SettingsPanel } from '../../src/app/settings-panel';
import { SettingsProvider } from '../../src/components/settings';

/**
 * The theme setting: light, dark or the system's, kept in this browser and put on the
 * root element, by the app as it is chosen and by public/theme.js at the next load,
 * before the app's code runs.
 */
const STORAGE_KEY = 'token-activity-settings';
// Tests run from the project's folder.
const themeScript = readFileSync(join(process.cwd(), 'public/theme.js'), 'utf8');
const runThemeScript = () => new Function(themeScript)() as void;

afterEach(() => {
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe('the theme setting', () => {
  it('is chosen in Settings, kept, and applied at once', async () => {
    const user = userEvent.setup();
    render(
      <SettingsProvider>
        <SettingsPanel />
      </SettingsProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const theme = screen.getByRole('combobox', { name: 'Theme' });
    expect(theme).toHaveValue('system');
    expect(document.documentElement.dataset.theme).toBeUndefined();

    await user.selectOptions(theme, 'Dark');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(JSON.parse(localStorage.getItem(STORAGE_KEY)!)).toMatchObject({ theme: 'dark' });

    await user.selectOptions(theme, 'As the system');
    expect(document.documentElement.dataset.theme).toBeUndefined();
  });

  it('is put on the page by the script that runs before the app, whatever is stored', () => {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ theme: 'light', pageSize: 50 }));
    runThemeScript();
    expect(document.documentElement.dataset.theme).toBe('light');

    delete document.documentElement.dataset.theme;
    for (const stored of ['{"theme":"purple"}', '{not json', '{}']) {
      localStorage.setItem(STORAGE_KEY, stored);
      runThemeScript();
      expect(document.documentElement.dataset.theme).toBeUndefined();
    }
  });
});
