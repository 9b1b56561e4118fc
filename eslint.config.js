import tseslint from 'typescript-eslint';

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
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: ['sqlite3'] }] },
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
