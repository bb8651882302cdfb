import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'proto/gen/**',
      '.cache/**',
      '**/dist/**',
      'bench/results/**',
      'apps/coding-agent/testing/real-commits/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  // TypeScript: type-aware rules, and the package boundaries.
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Another package is used through what it exports (its index, or its `testing` entry), never its files.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@farm/[^/]+/(src|testing/.+)(/|$)',
              message: 'import another package through its entry (@farm/x) or its test support (@farm/x/testing)',
            },
          ],
        },
      ],
      // Skips type imports and type-only re-exports: `pnpm lint` first runs scripts/import-cycles.ts, which counts them.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
    },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: import.meta.dirname })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
  },
  // What ships (src/, tests aside) never reaches into test support.
  {
    files: ['**/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@farm/[^/]+/(src|testing)(/|$)',
              message: 'import another package through its entry (@farm/x); test support is for tests only',
            },
            { regex: '(^|/)testing(/|$)', message: 'test support (testing/) is not shipped: only tests may import it' },
          ],
        },
      ],
    },
  },
  // Plain CommonJS files loaded by jest itself.
  { files: ['**/*.js'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
  // The web console: ES modules run by the browser as they are.
  {
    files: ['apps/orchestrator/console/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
);
