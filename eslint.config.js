import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const sandboxed = 'workflow code runs in Temporal\'s deterministic sandbox: no Node builtins; anything with effects belongs in an activity';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.cache/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Storage owns every SQL statement; engine and storage never know about HTTP or Temporal.
    files: ['engine/**/*.ts', 'storage/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/api/**', '**/workflows/**', 'koa', '@koa/*'] }],
    },
  },
  {
    // The API reaches Temporal through its one client; only the entry point composes a worker.
    files: ['api/**/*.ts'],
    ignores: ['api/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: ['sqlite3', '@temporalio/worker', '@temporalio/workflow'], patterns: ['**/workflows/worker*', '**/workflows/activities/**', '**/workflows/runtime/**', '**/*.workflow.js'] },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**', 'koa', '@koa/*'] }] },
  },
  {
    // Workflows: deterministic code, activities imported as types only.
    files: ['workflows/**/*.workflow.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: builtinModules.map((name) => ({ name, message: sandboxed })),
          patterns: [
            { group: ['node:*'], message: sandboxed },
            { group: ['**/activities/**', '**/engine/**', '**/storage/**', '**/api/**', '@temporalio/client', '@temporalio/worker'], allowTypeImports: true, message: 'workflows see activities and other layers as types only' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: sandboxed }, { name: 'Buffer', message: sandboxed }, { name: 'require', message: sandboxed }],
    },
  },
  {
    files: ['scripts/**', 'bench/**', 'api/cli/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // Tests read loosely typed JSON answers; the upstream schema check is what types them.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
