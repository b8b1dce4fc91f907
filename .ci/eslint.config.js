// ESLint configuration. It lives in .ci/ because the project's top level is fixed;
// `npm run lint` points ESLint at it.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Forbids imports of the named layers, matched on the import path. */
const forbid = (layers, why) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          regex: `^(\\.\\./)+(${layers.join('|')})(/|$)`,
          message: why,
        },
      ],
    },
  ],
});

const ONE_WAY = 'Imports go one way: lib ← api ← components ← pages ← app.';
const NO_SERVER = 'src/server/ is Node-only and must never reach the browser bundle.';

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
  // One-way imports between the browser layers, and no server code in the browser.
  {
    files: ['src/lib/**'],
    rules: forbid(['api', 'components', 'pages', 'app', 'server'], ONE_WAY),
  },
  { files: ['src/api/**'], rules: forbid(['components', 'pages', 'app', 'server'], ONE_WAY) },
  { files: ['src/components/**'], rules: forbid(['pages', 'app', 'server'], ONE_WAY) },
  { files: ['src/pages/**'], rules: forbid(['app', 'server'], ONE_WAY) },
  { files: ['src/app/**'], rules: forbid(['server'], NO_SERVER) },
  // The server uses only pure helpers from src/lib, never React code.
  { files: ['src/server/**'], rules: forbid(['api', 'components', 'pages', 'app'], NO_SERVER) },
  { files: ['test/**'], languageOptions: { globals: { ...globals.vitest } } },
);
