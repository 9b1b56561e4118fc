import type pg from 'pg';
import type { Queryable } from './db.js';
import { postgresSchema } from './dialect.js';
import { migrations } from './migrations/index.js';

/**
 * Applies every numbered migration above the file's `user_version`, each in its own transaction.
 * The version is read again inside the write lock, so two processes starting at once apply each
 * migration once.
 */
export async function migrate(db: Queryable, exec: (sql: string) => Promise<void>): Promise<void> {
  assertKnownVersion((await db.get<{ user_version: number }>('PRAGMA user_version'))?.user_version ?? 0);
  for (const migration of migrations) {
    await exec('BEGIN IMMEDIATE');
    try {
      const row = await db.get<{ user_version: number }>('PRAGMA user_version');
      if ((row?.user_version ?? 0) < migration.version) {
        await exec(migration.sql);
        await exec(`PRAGMA user_version = ${migration.version}`);
      }
      await exec('COMMIT');
    } catch (error) {
      await exec('ROLLBACK');
      throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
    }
  }
}

/** Any number: the advisory lock under which PostgreSQL nodes starting together migrate once. */
const migrationLock = 0x51756972;

/**
 * PostgreSQL: every migration above the recorded version, in one transaction under an advisory
 * lock, so a node that starts while another migrates waits and then finds nothing to do.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await client.query('CREATE TABLE IF NOT EXISTS quire_schema (version BIGINT NOT NULL)');
    const version = Number((await client.query('SELECT max(version) AS version FROM quire_schema')).rows[0]?.version ?? 0);
    assertKnownVersion(version);
    for (const migration of migrations) {
      if (migration.version <= version) continue;
      try {
        await client.query(migration.postgres ?? postgresSchema(migration.sql));
      } catch (error) {
        throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
      }
      await client.query('INSERT INTO quire_schema (version) VALUES ($1)', [migration.version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * A database a newer Quire migrated is refused: this version doesn't know what the newer
 * migrations changed, and writing to it could lose what they keep (docs/operations.md, *Upgrades*).
 */
function assertKnownVersion(version: number): void {
  const newest = migrations.at(-1)?.version ?? 0;
  if (version > newest) {
    throw new Error(`the database is at migration ${version}, newer than this version of Quire knows (${newest}): run the version that migrated it, or restore the backup taken before the upgrade`);
  }
}
