import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { StorageError } from '../../storage/errors.js';
import { until } from '../helpers/poll.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

const test = suite('storage: a transaction or statement that hangs holds up no other for good');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-stuck-'));
let db: Database;
/** The same database with room to wait: what a slow transaction that ends in time meets. */
let patient: Database;
const limits = { lockWaitMs: 400, stuckMs: 1_500, statementMs: 60_000 };
test.before(async () => {
  const location = testingOnPostgres ? await freshTestDatabase('stuck_transactions') : path.join(dir, 'quire.db');
  db = await openDatabase(location, limits);
  patient = await openDatabase(location, { lockWaitMs: 10_000, stuckMs: 20_000, statementMs: 60_000 });
  await db.run('CREATE TABLE probe_counter (id TEXT PRIMARY KEY, n INTEGER NOT NULL)');
  await db.run("INSERT INTO probe_counter VALUES ('one', 0)");
});
test.after(async () => {
  await patient.close();
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a writer behind a stuck transaction fails as contended at its wait limit; the stuck one is rolled back and fails when it goes on', async () => {
  let holding: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (holding = resolve));
  let release: () => void = () => undefined;
  const stuck = db
    .transaction(async (tx) => {
      await tx.run("UPDATE probe_counter SET n = n + 1 WHERE id = 'one'");
      holding();
      await new Promise<void>((resolve) => (release = resolve)); // a process stuck between two statements
      await tx.run("UPDATE probe_counter SET n = n + 10 WHERE id = 'one'");
    })
    .catch((error: unknown) => error);
  await held;

  const started = Date.now();
  const refused = await db.transaction((tx) => tx.run("UPDATE probe_counter SET n = n + 100 WHERE id = 'one'")).catch((error: unknown) => error);
  const waited = Date.now() - started;
  assert.instance(refused, StorageError);
  assert.is((refused as StorageError).code, 'contended', String(refused));
  assert.ok(waited >= limits.lockWaitMs - 50 && waited < 5_000, `refused at the wait limit: ${waited} ms`);

  // Past the stuck limit the transaction is ended (PostgreSQL: by the server) and its locks go.
  await sleep(limits.stuckMs + 500);
  release();
  assert.instance(await stuck, Error, 'the stuck transaction failed when it went on');
  assert.is((await db.transaction((tx) => tx.run("UPDATE probe_counter SET n = n + 1000 WHERE id = 'one'"))).changes, 1, 'the writer is free again');
  assert.is((await db.get<{ n: number }>("SELECT n FROM probe_counter WHERE id = 'one'"))?.n, 1000, 'neither the stuck transaction nor the refused one left anything');
});

test('writers waiting behind a slow transaction that ends within their limit all run', async () => {
  const before = (await patient.get<{ n: number }>("SELECT n FROM probe_counter WHERE id = 'one'"))!.n;
  const order: string[] = [];
  let slowHolds = false;
  const slow = patient.transaction(async (tx) => {
    await tx.run("UPDATE probe_counter SET n = n + 100 WHERE id = 'one'");
    slowHolds = true;
    await sleep(500);
    order.push('slow');
  });
  await until('the slow transaction to hold the row', () => slowHolds);
  const queued = Array.from({ length: 5 }, (_, index) =>
    patient.transaction(async (tx) => {
      await tx.run("UPDATE probe_counter SET n = n + 1 WHERE id = 'one'");
      order.push(`queued ${index}`);
    }),
  );
  await Promise.all([slow, ...queued]);
  assert.is((await patient.get<{ n: number }>("SELECT n FROM probe_counter WHERE id = 'one'"))?.n, before + 105, 'every one of them counted');
  assert.is(order[0], 'slow', `none ran before the one holding the row ended: ${order.join(', ')}`);
  assert.is(order.length, 6);
});

test('a statement sent after its transaction ended (a branch of work that failed elsewhere) is refused, not run outside it', async () => {
  await patient.run('CREATE TABLE probe_stray (value TEXT)');
  let straySent: Promise<unknown> = Promise.resolve();
  const failed = await patient
    .transaction(async (tx) => {
      straySent = (async () => {
        await tx.get('SELECT 1');
        await sleep(100);
        await tx.run("INSERT INTO probe_stray VALUES ('stray')");
      })().catch((error: unknown) => error);
      await tx.run("INSERT INTO probe_stray VALUES ('rolled back')");
      throw new Error('the work failed');
    })
    .catch((error: unknown) => error);
  assert.is((failed as Error).message, 'the work failed');
  assert.instance(await straySent, Error, 'the stray statement was refused');
  await patient.run("INSERT INTO probe_stray VALUES ('after')");
  assert.equal(await patient.all('SELECT value FROM probe_stray'), [{ value: 'after' }], 'neither the transaction nor its stray statement left a row');
});

test('a statement that runs past its limit is stopped as unavailable, read or write, and the connections go on', async () => {
  const location = testingOnPostgres ? await freshTestDatabase('runaway') : path.join(dir, 'runaway.db');
  const statementMs = 500;
  const limited = await openDatabase(location, { lockWaitMs: 10_000, stuckMs: 20_000, statementMs });
  try {
    await limited.run('CREATE TABLE probe_runaway (value TEXT)');
    // A billion rows counted: minutes on either database if nothing stops it.
    const runaway = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT count(*) AS n FROM c';
    const stopped = async (label: string, statement: Promise<unknown>) => {
      const started = Date.now();
      const error = await statement.then(
        () => undefined,
        (failure: unknown) => failure,
      );
      const took = Date.now() - started;
      assert.instance(error, StorageError, `${label}: ${String(error)}`);
      assert.is((error as StorageError).code, 'unavailable', `${label}: ${String(error)}`);
      assert.match((error as Error).message, /ran over 0\.5 s and was stopped/);
      assert.ok(took >= statementMs - 50 && took < 5_000, `${label}: stopped after ${took} ms`);
    };
    await stopped('a read', limited.get(runaway));
    assert.equal(await limited.get('SELECT 1 AS one'), { one: 1 }, 'the read connection answers again');
    await stopped(
      'a read in a write transaction',
      limited.transaction(async (tx) => {
        await tx.run("INSERT INTO probe_runaway VALUES ('rolled back')");
        await tx.get(runaway);
      }),
    );
    // A write stopped mid-way rolls its whole transaction back on SQLite: a statement sent beside it
    // must not then run on its own and be committed, nor one the work sends after catching the error.
    const runawayWrite = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) INSERT INTO probe_runaway (value) SELECT 'runaway' FROM c WHERE x = 1000000000`;
    await stopped(
      'a write beside another',
      limited.transaction(async (tx) => {
        await tx.run("INSERT INTO probe_runaway VALUES ('rolled back')");
        await Promise.all([tx.run(runawayWrite), tx.run("INSERT INTO probe_runaway VALUES ('beside')")]);
      }),
    );
    await stopped(
      'a write whose error the work swallowed',
      limited.transaction(async (tx) => {
        await tx.run("INSERT INTO probe_runaway VALUES ('rolled back')");
        await tx.run(runawayWrite).catch(() => undefined);
        await tx.run("INSERT INTO probe_runaway VALUES ('went on')").catch(() => undefined);
      }),
    );
    await limited.run("INSERT INTO probe_runaway VALUES ('after')");
    assert.equal(await limited.all('SELECT value FROM probe_runaway'), [{ value: 'after' }], 'the stopped transactions left nothing; the writer is free');
    // Closing waits for what runs, and what runs away is still stopped meanwhile.
    const running = limited.get(runaway).catch((error: unknown) => error);
    await sleep(50);
    const closeStarted = Date.now();
    await limited.close();
    assert.ok(Date.now() - closeStarted < 5_000, `closed in ${Date.now() - closeStarted} ms`);
    assert.instance(await running, StorageError);
  } finally {
    await limited.close();
  }
});

test('closing waits for the writer however long it is held: its transaction ends and commits first', async () => {
  const location = testingOnPostgres ? await freshTestDatabase('stuck_close') : path.join(dir, 'close.db');
  const closing = await openDatabase(location, { lockWaitMs: 100, stuckMs: 5_000, statementMs: 60_000 });
  await closing.run('CREATE TABLE probe_closing (value TEXT NOT NULL)');
  const events: string[] = [];
  const slow = closing
    .transaction(async (tx) => {
      await tx.run("INSERT INTO probe_closing VALUES ('held')");
      events.push('writing');
      await sleep(400);
      await tx.run("INSERT INTO probe_closing VALUES ('after the wait')");
    })
    .then(() => events.push('committed'));
  await until('the writer to hold its transaction', () => events.includes('writing'), 5_000, 5);
  await closing.close();
  events.push('closed');
  await slow;
  assert.equal(events, ['writing', 'committed', 'closed'], 'close returned only once the transaction had committed');
  const reopened = await openDatabase(location);
  try {
    assert.equal(await reopened.all('SELECT value FROM probe_closing ORDER BY value'), [{ value: 'after the wait' }, { value: 'held' }], 'both of its writes are stored');
  } finally {
    await reopened.close();
  }
});

test.run();
