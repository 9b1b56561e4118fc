import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { databaseFreeFolders } from '../runner/databaseFree.mjs';
import { projectRoot } from '../helpers/processes.js';

// npm test runs these folders' suites on its SQLite pass only: none may start a server or open a
// database, or its PostgreSQL side would go untested.
const test = suite('the suites run on one database only open none');
const opensDatabase = /from '(?:\.\.\/helpers\/(?:server|postgres|bootstrappedService|fixtures|temporal)|\.\.\/\.\.\/(?:storage\/[^']*|api\/(?:app|main|server)))\.js'|QUIRE_DATABASE_URL/;

test('engine/, domain/ and runner/ suites import no server, storage or database helper', () => {
  const suites = databaseFreeFolders.flatMap((folder) =>
    readdirSync(path.join(projectRoot, 'test', folder))
      .filter((file) => file.endsWith('.test.ts'))
      .map((file) => path.join('test', folder, file)),
  );
  assert.ok(suites.length > 20, `${suites.length} suites found`);
  const opening = suites.filter((file) => opensDatabase.test(readFileSync(path.join(projectRoot, file), 'utf8')));
  assert.equal(opening, []);
});

test.run();
