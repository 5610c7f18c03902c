// Lint rules. The core (src/domain, src/engine) is pure: no node:* modules, no database
// drivers, no clock, no randomness — replay, the state hash and virtual time depend on it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const impureGlobals = [
  { object: 'Date', property: 'now', message: 'The core takes time from the command.' },
  { object: 'Math', property: 'random', message: 'The core is deterministic.' },
  { object: 'crypto', property: 'randomUUID', message: 'Ids come in with the command.' },
  { object: 'performance', property: 'now', message: 'The core takes time from the command.' },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'coverage/', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setImmediate: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        TextEncoder: 'readonly',
        queueMicrotask: 'readonly',
        structuredClone: 'readonly',
        AbortController: 'readonly',
        fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/domain/**/*.ts', 'src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'os', 'better-sqlite3', 'pg', 'ws'],
              message: 'The core does no I/O.',
            },
            {
              group: ['**/api/**', '**/persistence/**', '**/admin/**', '**/market/**'],
              message: 'The core depends on nothing outside it.',
            },
          ],
        },
      ],
      'no-restricted-properties': ['error', ...impureGlobals],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'The core takes time from the command.',
        },
      ],
    },
  },
);
