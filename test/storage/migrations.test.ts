import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase } from '../../storage/db.js';
import { migrations } from '../../storage/migrations/index.js';
import { createUser } from '../../storage/users.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

// migrate() applies a migration only above the database's version: one listed out of order, or
// numbered below one already applied, would be skipped for good.
const test = suite('storage migrations');

test('are listed in strictly increasing order, one per numbered file, none forgotten', () => {
  const versions = migrations.map((migration) => migration.version);
  assert.equal(
    versions,
    [...versions].sort((a, b) => a - b),
    'listed in order',
  );
  assert.is(new Set(versions).size, versions.length, 'no number twice');
  const files = readdirSync(new URL('../../storage/migrations/', import.meta.url)).filter((name) => /^\d{3}-.*\.ts$/.test(name));
  assert.equal(
    files.map((name) => Number(name.slice(0, 3))).sort((a, b) => a - b),
    versions,
    'every numbered file is listed, with its number',
  );
});

test('a database a newer Quire migrated is refused at start, and left as it was', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-migrations-'));
  try {
    const location = testingOnPostgres ? await freshTestDatabase('newer_migration') : path.join(dir, 'quire.sqlite');
    const newest = migrations.at(-1)!.version;
    const db = await openDatabase(location);
    await createUser(db, { email: 'kept@example.com' });
    // What a newer version's start leaves: its migration recorded.
    if (testingOnPostgres) await db.run('INSERT INTO quire_schema (version) VALUES (?)', [newest + 1]);
    else await db.run(`PRAGMA user_version = ${newest + 1}`);
    await db.close();
    const refusal = await openDatabase(location).then(
      async (opened) => {
        await opened.close();
        return undefined;
      },
      (error: Error) => error.message,
    );
    assert.is(
      refusal,
      `the database is at migration ${newest + 1}, newer than this version of Quire knows (${newest}): run the version that migrated it, or restore the backup taken before the upgrade`,
    );
    // The refusal wrote nothing: the newer version finds its data, this one's user included.
    assert.equal(await readBack(location), { version: newest + 1, users: 1 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The recorded version and the kept user, read with the driver itself: Quire's own open refuses. */
async function readBack(location: string): Promise<{ version: number; users: number }> {
  if (testingOnPostgres) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: location });
    await client.connect();
    try {
      const version = Number((await client.query('SELECT max(version) AS version FROM quire_schema')).rows[0].version);
      const users = Number((await client.query("SELECT count(*) AS n FROM users WHERE email = 'kept@example.com'")).rows[0].n);
      return { version, users };
    } finally {
      await client.end();
    }
  }
  const { default: sqlite3 } = await import('sqlite3');
  const raw = new sqlite3.Database(location);
  const get = <T>(sql: string) => new Promise<T>((resolve, reject) => raw.get(sql, (error: Error | null, row: T) => (error ? reject(error) : resolve(row))));
  try {
    const { user_version: version } = await get<{ user_version: number }>('PRAGMA user_version');
    const { n: users } = await get<{ n: number }>("SELECT count(*) AS n FROM users WHERE email = 'kept@example.com'");
    return { version, users };
  } finally {
    await new Promise<void>((resolve) => raw.close(() => resolve()));
  }
}

test.run();
