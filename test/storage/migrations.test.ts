import { readdirSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { migrations } from '../../storage/migrations/index.js';

// migrate() applies a migration only above the database's version: one listed out of order, or
// numbered below one already applied, would be skipped for good.
const test = suite('storage migrations');

test('are listed in strictly increasing order, one per numbered file, none forgotten', () => {
  const versions = migrations.map((migration) => migration.version);
  assert.equal(versions, [...versions].sort((a, b) => a - b), 'listed in order');
  assert.is(new Set(versions).size, versions.length, 'no number twice');
  const files = readdirSync(new URL('../../storage/migrations/', import.meta.url)).filter((name) => /^\d{3}-.*\.ts$/.test(name));
  assert.equal(files.map((name) => Number(name.slice(0, 3))).sort((a, b) => a - b), versions, 'every numbered file is listed, with its number');
});

test.run();
