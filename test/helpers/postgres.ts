import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgresCluster.js';
import { openDatabase } from '../../storage/db.js';
import { checkpointedDatabaseFolder } from '../../storage/postgresAdmin.js';

/**
 * With QUIRE_TEST_POSTGRES=1 (the second pass of `npm test`, scripts/test.mjs) every test server, worker and admin command
 * keeps its metadata in PostgreSQL: one throwaway cluster per test run, one database per data
 * directory (so processes sharing a data directory share a database, as on SQLite), each made
 * from a migrated template.
 */
export const testingOnPostgres = process.env.QUIRE_TEST_POSTGRES === '1';

let cluster: Promise<PostgresCluster> | undefined;
const databases = new Map<string, Promise<string>>();

/** The cluster of this test run, started on first use and stopped when the process exits. */
export function testCluster(): Promise<PostgresCluster> {
  cluster ??= startPostgresCluster().then(async (started) => {
    process.once('exit', () => started.stopNow());
    await started.createDatabase('quire_template');
    const template = await openDatabase(started.url('quire_template'));
    await template.close();
    return started;
  });
  return cluster;
}

/** The database of a data directory: undefined on SQLite runs. */
export async function testDatabaseUrl(dataDir: string): Promise<string | undefined> {
  if (!testingOnPostgres) return undefined;
  let url = databases.get(dataDir);
  if (!url) {
    const name = `quire_${createHash('sha256').update(dataDir).digest('hex').slice(0, 16)}`;
    url = testCluster().then(async (running) => {
      await running.createDatabase(name, 'quire_template');
      return running.url(name);
    });
    databases.set(dataDir, url);
  }
  return url;
}

/** A database with no table at all (not even Quire's migrations): what a restore goes into. */
export async function emptyTestDatabase(label: string): Promise<string> {
  const running = await testCluster();
  const name = `quire_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await running.createDatabase(name);
  return running.url(name);
}

/** A new, empty database (its own name), for tests that open the storage directly. */
export async function freshTestDatabase(label: string): Promise<string> {
  const running = await testCluster();
  const name = `quire_${label}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  await running.createDatabase(name, 'quire_template');
  return running.url(name);
}

/**
 * The files a data directory's metadata is written to: the SQLite file and its write-ahead log, or
 * on PostgreSQL its database's table files, after a checkpoint has written every change there
 * (the cluster's WAL holds the other tests' databases too).
 */
export async function metadataFiles(dataDir: string): Promise<string[]> {
  if (!testingOnPostgres) return ['quire.sqlite', 'quire.sqlite-wal'].map((name) => path.join(dataDir, name));
  const running = await testCluster();
  const folder = path.join(running.dir, 'data', await checkpointedDatabaseFolder((await testDatabaseUrl(dataDir))!));
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(folder, entry.name));
}
