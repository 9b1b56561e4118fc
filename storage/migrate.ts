import type { Queryable } from './db.js';
import { migrations } from './migrations/index.js';

/**
 * Applies every numbered migration above the file's `user_version`, each in its own transaction.
 * The version is read again inside the write lock, so two processes starting at once apply each
 * migration once.
 */
export async function migrate(db: Queryable, exec: (sql: string) => Promise<void>): Promise<void> {
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
