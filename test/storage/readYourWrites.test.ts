import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

const test = suite('storage: a read after a write sees it, whatever other reads run meanwhile');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-read-your-writes-'));
let db: Database;
test.before(async () => {
  db = await openDatabase(testingOnPostgres ? await freshTestDatabase('read_your_writes') : path.join(dir, 'quire.db'));
  // A table of the test's own: the migrations' tables have foreign keys to satisfy.
  await db.run('CREATE TABLE probe_rows (id TEXT PRIMARY KEY, value TEXT)');
  await db.transaction(async (tx) => {
    for (let i = 0; i < 2000; i += 1) await tx.run('INSERT INTO probe_rows VALUES (?, ?)', [`seed-${i}`, 'x'.repeat(100)]);
  });
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a row inserted is found by the next read, with six readers busy on the same connection', async () => {
  let busy = true;
  const readers = Array.from({ length: 6 }, async () => {
    while (busy) {
      await db.get('SELECT * FROM probe_rows ORDER BY value LIMIT 1');
      await db.all('SELECT id FROM probe_rows WHERE value LIKE ?', ['%y%']);
    }
  });
  const missed: string[] = [];
  try {
    // Before the read connection ran one statement at a time, about one read in ten missed its row here.
    for (let i = 0; i < 600; i += 1) {
      await db.run('INSERT INTO probe_rows VALUES (?, ?)', [`new-${i}`, 'v']);
      if (!(await db.get('SELECT id FROM probe_rows WHERE id = ?', [`new-${i}`]))) missed.push(`new-${i}`);
    }
  } finally {
    busy = false;
    await Promise.all(readers);
  }
  assert.equal(missed, []);
});

test.run();
