import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageShells } from '../../../src/server/http/page-code';

const SHELL = '<html><head><title>Token activity</title></head><body></body></html>';
const ADDRESS = `0x${'ab'.repeat(32)}`;

// What Vite writes with `build.manifest`: the entry, two pages, a chunk they share.
const MANIFEST = {
  'index.html': { file: 'assets/index-E.js', isEntry: true, css: ['assets/index-E.css'] },
  '_pages-shared-S.js': {
    file: 'assets/pages-shared-S.js',
    imports: ['index.html'],
    css: ['assets/pages-shared-S.css'],
  },
  'src/pages/contract-events/contract-events-page.tsx': {
    file: 'assets/contract-events-page-C.js',
    isDynamicEntry: true,
    imports: ['index.html', '_pages-shared-S.js'],
    css: ['assets/contract-events-page-C.css'],
  },
  'src/pages/wallet/wallet-page.tsx': {
    file: 'assets/wallet-page-W.js',
    isDynamicEntry: true,
    imports: ['_pages-shared-S.js', 'index.html'],
  },
};

function clientDir(manifest?: object) {
  const dir = mkdtempSync(join(tmpdir(), 'page-code-'));
  if (manifest) {
    mkdirSync(join(dir, '.vite'));
    writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  }
  return dir;
}

const links = (html: string) => html.match(/<link [^>]+>/g) ?? [];

describe('a page names its code', () => {
  it("lists the page's chunk, the chunks it imports and their styles, not the entry's", () => {
    const shellFor = pageShells(clientDir(MANIFEST), SHELL);
    expect(links(shellFor(`/contracts/${ADDRESS}`))).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/contract-events-page-C.js">',
      '<link rel="modulepreload" crossorigin href="/assets/pages-shared-S.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/contract-events-page-C.css">',
      '<link rel="preload" as="style" crossorigin href="/assets/pages-shared-S.css">',
    ]);
    expect(links(shellFor(`/addresses/${ADDRESS}/`))).toEqual([
      '<link rel="modulepreload" crossorigin href="/assets/wallet-page-W.js">',
      '<link rel="modulepreload" crossorigin href="/assets/pages-shared-S.js">',
      '<link rel="preload" as="style" crossorigin href="/assets/pages-shared-S.css">',
    ]);
    expect(shellFor(`/addresses/${ADDRESS}`)).toContain('<title>Token activity</title>');
  });

  it('leaves the shell as it is for a path that is no page, a page not in the manifest, or no manifest', () => {
    const shellFor = pageShells(clientDir(MANIFEST), SHELL);
    expect(shellFor('/nowhere')).toBe(SHELL);
    expect(shellFor('/transactions/0x12')).toBe(SHELL);
    expect(pageShells(clientDir(), SHELL)(`/contracts/${ADDRESS}`)).toBe(SHELL);
  });
});
