import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sqlite3 from 'sqlite3';
import { unaccentQualified } from './migrations/039-unaccent-qualified.js';
import { connected } from './postgresAdmin.js';

const run = promisify(execFile);

/**
 * A consistent copy of a SQLite database in use, by SQLite's online backup: every page copied in
 * one step under a read lock, so the copy is the database as one moment saw it, writers going on.
 */
export async function backupSqlite(file: string, destination: string): Promise<void> {
  const source = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      // node-sqlite3 runs the whole backup (step -1) and finishes it in the callback.
      const backup = (
        source as unknown as {
          backup(filename: string, done: (error: Error | null) => void): { step(pages: number, done: (error: Error | null) => void): void; finish(done?: (error: Error | null) => void): void };
        }
      ).backup(destination, (error) => {
        if (error) return reject(error);
        backup.step(-1, (stepError) => {
          if (stepError) return reject(stepError);
          backup.finish((finishError) => (finishError ? reject(finishError) : resolve()));
        });
      });
    });
  } finally {
    await new Promise<void>((resolve) => source.close(() => resolve()));
  }
}

/** A PostgreSQL database's consistent dump (pg_dump's own snapshot), in its custom format. */
export async function dumpPostgres(url: string, destination: string): Promise<void> {
  await run('pg_dump', ['--format=custom', '--no-owner', '--file', destination, url], { maxBuffer: 16 * 1024 * 1024 });
}

/**
 * A dump back into an empty PostgreSQL database, in two passes: extensions and functions first,
 * then the accent folding given its schema-qualified body (migration 39), then everything else.
 * In a dump of a release before migration 39 (the upgrade test's fixture) the body names
 * `unaccent` bare, which pg_restore's empty search_path can't find when the search table's
 * generated column is created.
 */
export async function restorePostgres(url: string, dump: string): Promise<void> {
  const entries = (await run('pg_restore', ['--list', dump], { maxBuffer: 16 * 1024 * 1024 })).stdout.split('\n').filter((line) => /^\d+;/.test(line));
  const early = (line: string) => /^\d+; \d+ \d+ (EXTENSION|FUNCTION|COMMENT - EXTENSION) /.test(line);
  const lists = mkdtempSync(path.join(tmpdir(), 'quire-restore-'));
  try {
    const pass = async (name: string, lines: string[]) => {
      const list = path.join(lists, name);
      writeFileSync(list, lines.join('\n') + '\n');
      await run('pg_restore', ['--no-owner', '--exit-on-error', '--use-list', list, '--dbname', url, dump], { maxBuffer: 16 * 1024 * 1024 });
    };
    await pass('first', entries.filter(early));
    await connected(url, async (client) => {
      if ((await client.query("SELECT 1 FROM pg_proc WHERE proname = 'quire_unaccent'")).rowCount) await client.query(unaccentQualified.postgres!);
    });
    await pass(
      'rest',
      entries.filter((line) => !early(line)),
    );
  } finally {
    rmSync(lists, { recursive: true, force: true });
  }
}

const countedTables = ['organizations', 'users', 'spaces', 'change_requests', 'comments', 'sites', 'tokens'];

/** What a backup's SQLite copy holds, counted on a read-only connection of its own (nothing migrated or written). */
export async function sqliteCounts(file: string): Promise<Record<string, number>> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const opened: sqlite3.Database = new sqlite3.Database(file, sqlite3.OPEN_READONLY, (error) => (error ? reject(error) : resolve(opened)));
  });
  try {
    const counts: Record<string, number> = {};
    for (const table of countedTables) {
      counts[table] = await new Promise<number>((resolve, reject) =>
        db.get(`SELECT COUNT(*) AS n FROM ${table}`, (error: Error | null, row: { n: number }) => (error ? reject(error) : resolve(Number(row.n)))),
      );
    }
    return counts;
  } finally {
    await new Promise<void>((resolve) => db.close(() => resolve()));
  }
}

/** The same of a PostgreSQL database, as it is when asked. */
export async function postgresCounts(url: string): Promise<Record<string, number>> {
  return connected(url, async (client) => {
    const counts: Record<string, number> = {};
    for (const table of countedTables) counts[table] = Number((await client.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n);
    return counts;
  });
}

/** Whether a PostgreSQL database holds no table of its own yet (a restore goes only into an empty one). */
export async function postgresIsEmpty(url: string): Promise<boolean> {
  return connected(url, async (client) => Number((await client.query<{ n: string }>('SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()')).rows[0]!.n) === 0);
}
