import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultWaitLimits, openDatabase, type Database } from '../../storage/db.js';
import { StorageError } from '../../storage/errors.js';
import { writtenTable } from '../../storage/readCache.js';
import { until as waitFor } from '../helpers/poll.js';
import { freshTestDatabase, testCluster, testingOnPostgres } from '../helpers/postgres.js';
import { stallingProxy } from '../helpers/stallingProxy.js';

const test = suite('storage: the read cache drops what a write touched');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-read-cache-'));
let file = path.join(dir, 'quire.db');
let db: Database;
test.before(async () => {
  if (testingOnPostgres) file = await freshTestDatabase('read_cache');
  db = await openDatabase(file);
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A cached read of `reads` that counts its loads. */
function counter(key: string, reads: readonly string[]) {
  let loads = 0;
  return {
    read: () => db.cached(key, reads, async () => ++loads),
    loads: () => loads,
  };
}

const until = async (condition: () => Promise<boolean>, what: string) => {
  for (const deadline = Date.now() + 5_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 10))) if (await condition()) return;
  assert.unreachable(`${what} within 5 s`);
};

test('a statement names the table it writes, or says it can’t be told', () => {
  assert.is(writtenTable('INSERT INTO change_request_contributors (a) VALUES (?) ON CONFLICT (a) DO UPDATE SET b = 1'), 'change_request_contributors');
  assert.is(writtenTable('\n  UPDATE OR IGNORE spaces SET title = ? WHERE id = ?'), 'spaces');
  assert.is(writtenTable('DELETE FROM memberships WHERE user_id = ?'), 'memberships');
  assert.is(writtenTable('REPLACE INTO tokens VALUES (?)'), 'tokens');
  assert.is(writtenTable('SELECT * FROM spaces'), null);
  assert.is(writtenTable('WITH doomed AS (SELECT id FROM spaces) DELETE FROM spaces WHERE id IN doomed'), 'all');
});

test('a write keeps values read from other tables and drops those read from its own', async () => {
  const space = counter('space', ['spaces']);
  const token = counter('token', ['tokens', 'users']);
  await space.read();
  await token.read();
  await db.run('UPDATE change_request_contributors SET count = count WHERE FALSE');
  await space.read();
  await token.read();
  assert.equal([space.loads(), token.loads()], [1, 1], 'a write elsewhere keeps both');
  await db.run('UPDATE users SET display_name = display_name WHERE FALSE');
  await space.read();
  await token.read();
  assert.equal([space.loads(), token.loads()], [1, 2], 'a write to users drops the token read only');
});

test('a delete reaches the tables whose foreign keys cascade from it', async () => {
  const membership = counter('membership', ['memberships']);
  await membership.read();
  await db.run('DELETE FROM organizations WHERE FALSE');
  await membership.read();
  assert.is(membership.loads(), 2, 'memberships cascade from organizations');
});

test('a transaction drops what any of its statements wrote; one that can’t be told drops everything', async () => {
  const space = counter('space-2', ['spaces']);
  const grants = counter('grants', ['content_grants']);
  await space.read();
  await grants.read();
  await db.transaction(async (tx) => {
    await tx.get('SELECT 1');
    await tx.run('UPDATE content_grants SET role = role WHERE FALSE');
  });
  await space.read();
  await grants.read();
  assert.equal([space.loads(), grants.loads()], [1, 2]);
  await db.run('WITH unchanged AS (SELECT 1) UPDATE spaces SET title = title WHERE FALSE');
  await grants.read();
  assert.is(grants.loads(), 3);
});

test('another process’s write drops everything; this process’s own writes don’t', async () => {
  const organization = counter('organization', ['organizations']);
  await organization.read();
  await db.run("INSERT INTO users (id, display_name, email, search_key, created_at) VALUES ('u-own', 'Own', 'own@example.com', 'own', '2026-01-01T00:00:00.000Z')");
  await new Promise((resolve) => setTimeout(resolve, 150));
  await organization.read();
  assert.is(organization.loads(), 1, 'three polls later, still kept');
  const other = await openDatabase(file);
  try {
    await other.run("INSERT INTO users (id, display_name, email, search_key, created_at) VALUES ('u-other', 'Other', 'other@example.com', 'other', '2026-01-01T00:00:00.000Z')");
  } finally {
    await other.close();
  }
  await until(async () => (await organization.read(), organization.loads() === 2), 'the other connection’s commit dropping the cached value');
});

if (testingOnPostgres) {
  test('a cached read just after another handle’s commit sees it, every time: 1,000 write-then-read pairs', async () => {
    const other = await openDatabase(file);
    try {
      const count = () => db.cached('users', ['users'], async () => Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM users'))!.n));
      const stale: number[] = [];
      for (let pair = 0; pair < 1000; pair += 1) {
        const before = (await count()) ?? 0;
        await other.run('INSERT INTO users (id, display_name, email, search_key, created_at) VALUES (?, ?, ?, ?, ?)', [
          `u-pair-${pair}`,
          'Pair',
          `pair-${pair}@example.com`,
          'pair',
          '2026-01-01T00:00:00.000Z',
        ]);
        if ((await count()) !== before + 1) stale.push(pair);
      }
      assert.equal(stale, [], 'no read missed the commit before it');
    } finally {
      await other.close();
    }
  });

  test('a server gone silent (no reset): cached reads wait 2 s at most with the cache off, a statement its limit; both come back', async () => {
    const cluster = await testCluster();
    const proxy = await stallingProxy(path.join(cluster.dir, '.s.PGSQL.5432'));
    const database = new URL(file).pathname.slice(1);
    const statementMs = 1_000;
    const silent = await openDatabase(`postgresql://${new URL(file).username}@${encodeURIComponent(proxy.dir)}/${database}`, { ...defaultWaitLimits, statementMs });
    try {
      let loads = 0;
      const read = () => silent.cached('silent', ['users'], async () => ++loads);
      await read();
      await read();
      assert.is(loads, 1, 'kept while the connection answers');
      proxy.stall();
      const started = Date.now();
      await read();
      const waited = Date.now() - started;
      assert.ok(waited < 4_000, `the read waited ${waited} ms, not until TCP gave up`);
      assert.is(loads, 2, 'the stalled listener dropped the cache');
      await read();
      assert.is(loads, 3, 'and keeps nothing while it is not listening');
      const statementStarted = Date.now();
      const failed = await silent.get('SELECT 1 AS one').catch((error: unknown) => error);
      assert.instance(failed, StorageError);
      assert.is((failed as StorageError).code, 'unavailable', String(failed));
      assert.ok(Date.now() - statementStarted < 8_000, `a statement gave up in ${Date.now() - statementStarted} ms`);
      proxy.resume();
      // It reconnects every few seconds (a connect through the stalled socket gives up after 5 s).
      await waitFor(
        'the listener back, reads kept again',
        async () => {
          const before = loads;
          await read();
          await read();
          return loads === before + 1;
        },
        20_000,
        100,
      );
      assert.is((await silent.get<{ one: number }>('SELECT 1 AS one'))?.one, 1, 'statements are answered again');
    } finally {
      proxy.resume();
      await silent.close();
      await proxy.close();
    }
  });
}

test.run();
