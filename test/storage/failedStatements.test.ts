import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { conflict, isUniqueViolation, StorageError } from '../../storage/errors.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

/**
 * A transaction whose statement failed commits nothing, on both databases alike: PostgreSQL aborts
 * it (and COMMIT then answers ROLLBACK without an error: the caller would believe it written),
 * SQLite would commit the statements around the failed one (half a change).
 */
const test = suite('storage: a statement that failed fails its transaction, even when the work went on');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-failed-statements-'));
let db: Database;
test.before(async () => {
  db = await openDatabase(testingOnPostgres ? await freshTestDatabase('failed_statements') : path.join(dir, 'quire.db'));
  await db.run('CREATE TABLE probe_items (id TEXT PRIMARY KEY, label TEXT NOT NULL)');
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const labels = async () => (await db.all<{ id: string; label: string }>('SELECT id, label FROM probe_items ORDER BY id')).map((row) => `${row.id}:${row.label}`);

test('work that swallows a failed statement and returns: the transaction fails with that statement’s error and writes nothing', async () => {
  await db.run("INSERT INTO probe_items VALUES ('a', 'first')");
  const outcome = await db
    .transaction(async (tx) => {
      await tx.run("UPDATE probe_items SET label = 'changed' WHERE id = 'a'");
      await tx.run("INSERT INTO probe_items VALUES ('a', 'duplicate')").catch(() => undefined);
      await tx.run("INSERT INTO probe_items VALUES ('b', 'after')").catch(() => undefined);
      return 'returned';
    })
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  assert.ok('error' in outcome, `the transaction failed, not ${JSON.stringify(outcome)}`);
  assert.ok(isUniqueViolation(outcome.error), `with the failed statement's error: ${String(outcome.error)}`);
  assert.equal(await labels(), ['a:first'], 'neither the statement before it nor the one after was committed');
});

test('a statement after a failed one is refused with the first failure, not sent', async () => {
  let seen: unknown[] = [];
  await db
    .transaction(async (tx) => {
      seen = []; // PostgreSQL runs the work again when a key it inserts was taken (perhaps by a concurrent insert)
      await tx.run("INSERT INTO probe_items VALUES ('a', 'duplicate')").catch((error: unknown) => seen.push(error));
      await tx.get('SELECT COUNT(*) AS n FROM probe_items').catch((error: unknown) => seen.push(error));
    })
    .catch(() => undefined);
  assert.is(seen.length, 2);
  assert.is(seen[1], seen[0], 'the later statement fails with the first failure');
  assert.ok(isUniqueViolation(seen[0]), String(seen[0]));
});

test('work that turns a failed statement into its own error: the caller gets that error', async () => {
  const error = await db
    .transaction(async (tx) => {
      try {
        await tx.run("INSERT INTO probe_items VALUES ('a', 'duplicate')");
      } catch (failure) {
        if (isUniqueViolation(failure)) throw conflict('item a exists');
        throw failure;
      }
    })
    .catch((failure: unknown) => failure);
  assert.instance(error, StorageError);
  assert.is((error as StorageError).code, 'conflict');
  assert.equal(await labels(), ['a:first']);
});

test('a statement the work did not wait for, failing after the work returned: the transaction fails all the same', async () => {
  const error = await db
    .transaction(async (tx) => {
      await tx.run("UPDATE probe_items SET label = 'changed' WHERE id = 'a'");
      void tx.run("INSERT INTO probe_items VALUES ('a', 'duplicate')").catch(() => undefined);
      return 'returned';
    })
    .then(
      () => undefined,
      (failure: unknown) => failure,
    );
  assert.ok(isUniqueViolation(error), `the transaction failed with the statement's error: ${String(error)}`);
  assert.equal(await labels(), ['a:first']);
});

test('the next transaction on the same connection runs normally', async () => {
  await db.transaction(async (tx) => {
    await tx.run("INSERT INTO probe_items VALUES ('c', 'next')");
    await tx.run("UPDATE probe_items SET label = 'next too' WHERE id = 'a'");
  });
  assert.equal(await labels(), ['a:next too', 'c:next']);
});

test.run();
