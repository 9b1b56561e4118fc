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
    // Domain commands serve the API and the workers alike: they know nothing of HTTP.
    files: ['domain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/api/**', 'koa', '@koa/*', '**/workflows/worker*', '**/workflows/activities/**', '**/*.workflow.js'] }] },
  },
  {
    // A route file is wiring: validation, policy, one command or read, a presenter. It writes
    // content only through domain commands and never reaches into another route file.
    files: ['api/routes/**/*.ts'],
    ignores: ['api/routes/index.ts', 'api/routes/print.ts', 'api/routes/permissionsTable.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['sqlite3', '@temporalio/worker', '@temporalio/workflow'],
          patterns: [
            { group: ['./*', '!./table.js', '!./specification.js'], message: 'route files don’t import each other: shared reads belong in presenters, domain or storage' },
            {
              group: ['**/engine/commitChanges*', '**/engine/commitTree*', '**/engine/buildTree*', '**/engine/compareAndSwapBranch*', '**/engine/spaceRepositories*', '**/engine/repository*', '**/engine/lock*'],
              message: 'routes write content through domain commands (domain/spaces: writeContent), never through the engine',
            },
            { group: ['**/workflows/worker*', '**/workflows/activities/**', '**/workflows/runtime/**', '**/*.workflow.js'], message: 'the API reaches Temporal through workflows/client.ts' },
          ],
        },
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
