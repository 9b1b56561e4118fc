import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseFreeFolders } from '../runner/databaseFree.mjs';
import { projectRoot } from '../helpers/processes.js';

// npm test runs these folders' suites on its SQLite pass only: none may start a server or a worker
// or open a database, or its PostgreSQL side would go untested. What reaches one, as the suites
// are written: the server, suite, fixture, Temporal and database helpers, the process helpers that
// start a service or a worker, storage, the API's server and the workflows, and the test run's own
// database switch.
const test = suite('the suites run on one database only open none');
const reachesDatabase = [
  /['"](?:\.\.\/)+helpers\/(?:server|postgres|bootstrappedService|fixtures|temporal|suite)\.js['"]/,
  /['"](?:\.\.\/)+(?:storage|workflows)\/[^'"]*['"]/,
  /['"](?:\.\.\/)+api\/(?:app|main|server)\.js['"]/,
  /\b(?:startService|startWorkerProcess|testDatabaseUrl|testingOnPostgres|QUIRE_TEST_POSTGRES|QUIRE_DATABASE_URL)\b/,
];

const suitesUnder = (folder: string): string[] =>
  readdirSync(path.join(projectRoot, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? suitesUnder(path.join(folder, entry.name)) : entry.name.endsWith('.test.ts') ? [path.join(folder, entry.name)] : [],
  );

test('engine/, domain/ and runner/ suites reach no server, worker, storage or database', () => {
  const suites = databaseFreeFolders.flatMap((folder) => suitesUnder(path.join('test', folder)));
  assert.ok(suites.length > 20, `${suites.length} suites found`);
  const reaching = suites.filter((file) => {
    const source = readFileSync(path.join(projectRoot, file), 'utf8');
    return reachesDatabase.some((pattern) => pattern.test(source));
  });
  assert.equal(reaching, []);
});

test('the check sees the ways in it names', () => {
  const caught = ["import { startTestServer } from '../helpers/server.js';", "import { withOrganization } from '../helpers/suite.js';", "const { startService } = await import('../helpers/processes.js');", "import { openDatabase } from '../../storage/db.js';", 'if (testingOnPostgres) return;'];
  for (const source of caught) assert.ok(reachesDatabase.some((pattern) => pattern.test(source)), source);
  assert.not.ok(reachesDatabase.some((pattern) => pattern.test("import { projectRoot } from '../helpers/processes.js';")), 'the project root alone');
});

test.run();
