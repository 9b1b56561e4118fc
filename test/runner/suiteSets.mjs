// Which suites run on which database (scripts/test.mjs).

// What reaches a database, as the suites are written: the server, suite, fixture, Temporal and
// database helpers, the process helpers that start a service or a worker, storage, the API's server
// and the workflows, and the test run's own database switch. A suite that names none of them opens
// no database: it runs on SQLite's pass only, since a pass with PostgreSQL would run the same code
// again (test/checks/databaseFree.test.ts checks these patterns, and that engine/ and runner/ hold
// only such suites).
export const reachesDatabase = [
  /['"](?:\.\.\/)+helpers\/(?:server|postgres|bootstrappedService|fixtures|factories|temporal|suite)\.js['"]/,
  /['"](?:\.\.\/)+(?:storage|workflows)\/[^'"]*['"]/,
  /['"](?:\.\.\/)+api\/(?:app|main|server)\.js['"]/,
  /\b(?:startService|startWorkerProcess|testDatabaseUrl|testingOnPostgres|QUIRE_TEST_POSTGRES|QUIRE_DATABASE_URL)\b/,
];

/** Whether a suite's source reaches a database (see reachesDatabase). */
export const opensDatabase = (source) => reachesDatabase.some((pattern) => pattern.test(source));

/** The folders whose suites must all be database-free. */
export const databaseFreeFolders = ['engine', 'runner'];

// What `npm test` also runs on PostgreSQL: the suites whose SQL differs between the two databases
// in what it does, not only in how it is spelled: every storage module (migrations, transactions,
// failed statements, locks, caches, the search index), full-text search and its ranking, list order
// and cursors (collation), role checks racing inside SERIALIZABLE transactions, commits other
// processes hear of (LISTEN/NOTIFY), members found by email (citext), advisory locks of the
// conversation jobs, every kind of write at once, and the storage nodes (PostgreSQL only).
// `npm run test:postgres` runs every suite that opens a database on PostgreSQL.
export const postgresDialectSuites = [
  /^storage\//,
  /^api\/search\.test\.ts$/,
  /^api\/pagination\.test\.ts$/,
  /^api\/roleRaces\.test\.ts$/,
  /^api\/crossProcess\.test\.ts$/,
  /^api\/members\.test\.ts$/,
  /^api\/conversations\.test\.ts$/,
  /^api\/mixedLoad\.test\.ts$/,
  /^process\/storageNodes\.test\.ts$/,
];

// The line a suite worker writes after a file's output (test/runner/suiteWorker.mjs), with the file's counts as JSON.
export const resultMark = '\u0001quire-suite-result ';
