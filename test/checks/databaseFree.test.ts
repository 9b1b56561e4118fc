import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseFreeFolders, reachesDatabase } from '../runner/suiteSets.mjs';
import { projectRoot } from '../helpers/processes.js';

// npm test runs a suite on PostgreSQL only when it reaches a database, by the patterns of
// test/runner/suiteSets.mjs: a suite those patterns miss would leave its PostgreSQL side untested.
// engine/ and runner/ hold database-free suites only.
const test = suite('the suites run on one database only open none');

const suitesUnder = (folder: string): string[] =>
  readdirSync(path.join(projectRoot, folder), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? suitesUnder(path.join(folder, entry.name)) : entry.name.endsWith('.test.ts') ? [path.join(folder, entry.name)] : [],
  );

test('engine/ and runner/ suites reach no server, worker, storage or database', () => {
  const suites = databaseFreeFolders.flatMap((folder) => suitesUnder(path.join('test', folder)));
  assert.ok(suites.length > 20, `${suites.length} suites found`);
  const reaching = suites.filter((file) => {
    const source = readFileSync(path.join(projectRoot, file), 'utf8');
    return reachesDatabase.some((pattern) => pattern.test(source));
  });
  assert.equal(reaching, []);
});

test('the check sees the ways in it names', () => {
  const caught = [
    "import { startTestServer } from '../helpers/server.js';",
    "import { withOrganization } from '../helpers/suite.js';",
    "import { testDatabase } from '../helpers/factories.js';",
    "const { startService } = await import('../helpers/processes.js');",
    "import { openDatabase } from '../../storage/db.js';",
    'if (testingOnPostgres) return;',
  ];
  for (const source of caught)
    assert.ok(
      reachesDatabase.some((pattern) => pattern.test(source)),
      source,
    );
  assert.not.ok(
    reachesDatabase.some((pattern) => pattern.test("import { projectRoot } from '../helpers/processes.js';")),
    'the project root alone',
  );
});

test.run();
