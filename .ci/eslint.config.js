// ESLint configuration. It lives in .ci/ because the project's top level is fixed;
// `npm run lint` points ESLint at it.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/*
 * The layer rule, checked on the file an import resolves to (so `./../api/x` from src/lib
 * is caught like `../api/x`): the browser code imports one way,
 * lib ← api ← components ← pages ← app; a page never imports another page (what two
 * pages share lives in components or below); src/server is Node-only, never imported by
 * the browser code, and itself imports only the pure helpers of src/lib. No cycles.
 */
const ONE_WAY = 'Imports go one way: lib ← api ← components ← pages ← app.';
const NO_SERVER = 'src/server/ is Node-only and must never reach the browser bundle.';
const SERVER_USES_LIB = 'src/server/ may use the pure helpers of src/lib/, no other browser code.';
const PAGES_APART =
  'A page never imports another page: move what both need to src/components/ or below.';

const pages = readdirSync(new URL('../src/pages', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zone = (target, from, message) => ({ target, from, message });
const layerZones = [
  zone('./src/lib', ['./src/api', './src/components', './src/pages', './src/app'], ONE_WAY),
  zone('./src/api', ['./src/components', './src/pages', './src/app'], ONE_WAY),
  zone('./src/components', ['./src/pages', './src/app'], ONE_WAY),
  zone('./src/pages', ['./src/app'], ONE_WAY),
  zone(
    ['./src/lib', './src/api', './src/components', './src/pages', './src/app'],
    './src/server',
    NO_SERVER,
  ),
  zone(
    './src/server',
    ['./src/api', './src/components', './src/pages', './src/app'],
    SERVER_USES_LIB,
  ),
  ...pages.map((page) => ({
    target: `./src/pages/${page}`,
    from: './src/pages',
    except: [`./${page}`],
    message: PAGES_APART,
  })),
];

/*
 * No function in src/server over 80 lines (blank lines and comments not counted), but in
 * these files, each said why in src/server/README.md ("Long functions"): a factory whose
 * closure holds one part's state and its short methods, a command's main, the sample
 * service's data generators. The list only shrinks.
 */
const LONG_FUNCTIONS_ALLOWED = [
  'src/server/database/embedded-postgres.ts',
  'src/server/database/read-pools.ts',
  'src/server/http/client-share.ts',
  'src/server/http/connection-limits.ts',
  'src/server/http/server-app.ts',
  'src/server/index-cli.ts',
  'src/server/index/first-read.ts',
  'src/server/index/ingest.ts',
  'src/server/indexer/indexer.ts',
  'src/server/live/live-api.ts',
  'src/server/live/live-hub.ts',
  'src/server/log/list-reader.ts',
  'src/server/log/record-log.ts',
  'src/server/monitoring.ts',
  'src/server/open-services.ts',
  'src/server/preview/card-renderer.ts',
  'src/server/preview/previews.ts',
  'src/server/sample-service/**',
  'src/server/upstream/gate.ts',
  'src/server/webhooks/deliverer.ts',
  'src/server/webhooks/outbox.ts',
  'src/server/webhooks/webhook-api.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'bench/**', 'test/e2e/artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['src/**/*.tsx', 'src/**/*.ts', 'test/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      // How the rules read the files imported (no-cycle follows their imports in turn).
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      // An import that resolves to nothing would escape the rule above: it must not exist.
      'import-x/no-unresolved': 'error',
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: LONG_FUNCTIONS_ALLOWED,
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true }],
    },
  },
  { files: ['test/**'], languageOptions: { globals: { ...globals.vitest } } },
);
