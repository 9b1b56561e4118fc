import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const sandboxed = "workflow code runs in Temporal's deterministic sandbox: no Node builtins; anything with effects belongs in an activity";

// A capability of domain/ (domain/spaces, domain/sites, …) is used through its index.ts; domain/common is open to all.
const faceMessage = 'a domain capability is imported through its index.js: what it does not export there is its own business';
const capabilityFace = { regex: String.raw`(^|/)domain/(?!common/)[^/]+/(?!index\.js$)[^/]+$`, message: faceMessage };
// Inside domain/, a sibling capability is `../<capability>/…`.
const siblingFace = { regex: String.raw`^\.\./(?!common/)[^/]+/(?!index\.js$)[^/]+$`, message: faceMessage };

// storage/ owns every SQL statement and the database drivers.
const sqlMessage = 'SQL lives in storage/: call (or add) a storage function';
const sqlStatement = String.raw`/^\s*(SELECT\s|INSERT\s+(OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|REPLACE\s+INTO\s|WITH\s+(RECURSIVE\s+)?\w+|(CREATE|ALTER|DROP)\s+(TABLE|INDEX|UNIQUE|VIEW|TRIGGER)\s|PRAGMA\s)/`;
const noSql = [
  { selector: `Literal[value=${sqlStatement}]`, message: sqlMessage },
  { selector: `TemplateElement[value.raw=${sqlStatement}]`, message: sqlMessage },
];
const databaseDrivers = [
  { name: 'sqlite3', message: sqlMessage },
  { name: 'pg', message: sqlMessage },
];

// The API writes through domain commands: from storage/ it imports reads only. storage/'s writes
// are known by the verb their names start with (a read is named find…, list…, load…, …Of).
const storageWrites = (who) => ({
  group: ['**/storage/**'],
  importNamePattern:
    '^(adjust|add|bump|change|claim|clear|complete|copy|create|delete|ensure|fail|gather|grant|insert|mark|migrate|move|place|purge|put|recount|record|regenerate|release|remove|rename|renumber|replace|request|restore|revoke|save|set|store|take|touch|transfer|update|upsert)(?:[A-Z]|$)',
  message: `${who} write through domain commands: from storage they only read`,
});
const apiTemporal = { group: ['**/workflows/worker*', '**/workflows/activities/**', '**/workflows/runtime/**', '**/*.workflow.js'] };
// The engine's face: outside engine/ (tests and benchmarks aside), code imports engine/index.js
// only; inside, modules import each other, never the face (a cycle, and a face that hides nothing).
// One pure module of the engine is imported by itself: the browser's editor model (domain/documents/editor) makes tables
// and expandables as the markdown reader does, and bundling the engine's face would bring its threads and git along.
const engineFace = {
  regex: String.raw`(^|/)engine/(?!index\.js$|markdown/documentBlocks\.js$)`,
  message: 'the engine is used through engine/index.js: its internals and threads are its own business',
};
const engineNotItsFace = { regex: String.raw`^(\./|(\.\./)+)index\.js$`, message: 'inside the engine, import the module itself: engine/index.js is the face it shows the layers above' };
const engineWrites = (who) => ({
  group: ['**/engine/index*'],
  importNames: ['commitChanges', 'commitOnHead', 'commitTree', 'compareAndSwapBranch', 'mergeBranch', 'placeMissingBranch', 'withRepositoryLock', 'writeCommit'],
  message: `${who} write content through domain commands (domain/spaces: writeContent), never through the engine`,
});
// A route reads content through domain reads (domain/spaces: revisionPage, revisionLinks, …) and sees the engine's types only.
const engineTypesOnly = {
  group: ['**/engine/**'],
  allowTypeImports: true,
  message: 'routes read content through the domain (domain/spaces: revisionPage, revisionLinks, …): from the engine they import types only',
};

const staticOnly = "import this project's modules statically: the layer rules check static imports only";
const dynamicImports = [
  { selector: String.raw`ImportExpression[source.value=/^\./]`, message: staticOnly },
  { selector: "ImportExpression:not([source.type='Literal'])", message: `${staticOnly}, and a computed module name escapes them all` },
];

// Every setting is read once, in config/, and handed to the layers below as values.
const settingsMessage = 'settings are read once, in config/ (docs/configuration.md): take the value as an argument or from configure…() at start';

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
    // Storage owns every SQL statement; engine and storage never know about HTTP, Temporal or the domain above them.
    files: ['engine/**/*.ts', 'storage/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/api/**', '**/workflows/**', '**/domain/**', 'koa', '@koa/*'] }],
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: databaseDrivers, patterns: [{ group: ['**/api/**', '**/workflows/**', '**/domain/**', 'koa', '@koa/*'] }, engineNotItsFace] }],
    },
  },
  {
    // Nothing outside storage/ runs SQL (tests may look into the database they made). The project's
    // own modules are imported statically, since the import rules below see only those: a dynamic
    // import() of one would pass any layer unchecked. Packages may still be loaded lazily.
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    ignores: ['storage/**', 'test/**'],
    rules: {
      'no-restricted-syntax': ['error', ...noSql, ...dynamicImports],
    },
  },
  {
    // The lazy loads of project modules: api/main.ts starts the worker, which the API must not
    // import (below); storage/db.ts loads the PostgreSQL driver's module only when it is asked for.
    files: ['api/main.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noSql] },
  },
  {
    files: ['storage/**/*.ts'],
    ignores: ['storage/db.ts'],
    rules: { 'no-restricted-syntax': ['error', ...dynamicImports] },
  },
  {
    // The API reaches Temporal through its one client; only the entry point composes a worker.
    files: ['api/**/*.ts'],
    ignores: ['api/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...databaseDrivers, '@temporalio/worker', '@temporalio/workflow'],
          patterns: [capabilityFace, engineFace, apiTemporal],
        },
      ],
    },
  },
  {
    // The operator's commands are the API's too: accounts, tokens, deletions and content go through
    // the domain (they may open the space repositories the domain commands are given).
    files: ['api/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...databaseDrivers, '@temporalio/worker', '@temporalio/workflow'],
          patterns: [capabilityFace, engineFace, apiTemporal, storageWrites('admin commands'), engineWrites('admin commands')],
        },
      ],
    },
  },
  {
    // Domain commands serve the API and the workers alike: they know nothing of HTTP or Temporal,
    // and reach jobs and repositories through the ports of domain/common/ports.ts.
    files: ['domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: databaseDrivers,
          patterns: [
            { group: ['**/api/**', 'koa', '@koa/*'], message: 'the domain knows nothing of HTTP: api/ calls it, not the other way round' },
            { group: ['**/workflows/**', '@temporalio/*'], message: 'the domain starts jobs through its Jobs port (domain/common/ports.ts), never through workflows/' },
            siblingFace,
            engineFace,
          ],
        },
      ],
    },
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
          paths: [...databaseDrivers, '@temporalio/worker', '@temporalio/workflow'],
          patterns: [
            capabilityFace,
            engineFace,
            { group: ['./*', '!./table.js', '!./specification.js'], message: 'route files don’t import each other: shared reads belong in presenters, domain or storage' },
            storageWrites('routes'),
            { ...apiTemporal, message: 'the API reaches Temporal through workflows/client.ts' },
          ],
        },
      ],
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [engineTypesOnly] }],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: databaseDrivers, patterns: [{ group: ['**/api/**', 'koa', '@koa/*'] }, capabilityFace, engineFace] }] },
  },
  {
    files: ['bench/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: databaseDrivers, patterns: [capabilityFace] }] },
  },
  {
    files: ['scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: databaseDrivers, patterns: [capabilityFace, engineFace] }] },
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
            {
              group: ['**/activities/**', '**/engine/**', '**/storage/**', '**/domain/**', '**/api/**', '@temporalio/client', '@temporalio/worker'],
              allowTypeImports: true,
              message: 'workflows see activities and other layers as types only',
            },
            capabilityFace,
            engineFace,
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
  {
    // The engine, the domain and storage receive their settings; git's subprocesses inherit the process's own environment.
    files: ['engine/**/*.ts', 'domain/**/*.ts', 'storage/**/*.ts'],
    ignores: ['engine/git/hookRelay.ts', 'engine/git/runGit.ts', 'engine/git/gitService.ts'],
    rules: { 'no-restricted-properties': ['error', { object: 'process', property: 'env', message: settingsMessage }] },
  },
  {
    // config/ is read by every layer and reads none of them.
    files: ['config/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/api/**', '**/domain/**', '**/engine/**', '**/storage/**', '**/workflows/**'], message: 'config/ reads the environment and nothing of the project' }] },
      ],
    },
  },
);
