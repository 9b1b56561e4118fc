import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { bundleSpaceRepository, localSpaceIds, restoreSpaceRepository } from '../../engine/index.js';
import { backupSqlite, dumpPostgres, postgresCounts, postgresIsEmpty, restorePostgres, sqliteCounts } from '../../storage/backup.js';
import { migrations } from '../../storage/migrations/index.js';

const run = promisify(execFile);

/** Where a deployment keeps its state: the data directory, and the PostgreSQL database when there is one. */
export interface Deployment {
  dataDir: string;
  databaseUrl?: string;
}

export interface BackupManifest {
  format: 1;
  createdAt: string;
  /** The schema the database is at: the newest migration this version knows. */
  migration: number;
  database: 'sqlite' | 'postgresql';
  counts: Record<string, number>;
  /** Every space repository kept, with whether it had any ref (an empty one has no bundle). */
  spaces: Array<{ id: string; bundled: boolean }>;
  /** Each file of the archive, with its size and SHA-256. */
  files: Array<{ path: string; bytes: number; sha256: string }>;
}

export class BackupError extends Error {}

const sqliteFile = (dataDir: string) => path.join(dataDir, 'quire.sqlite');

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * One archive (tar, gzip) of a deployment while it serves: the database first (SQLite's online
 * backup, or pg_dump), then every space repository of this node as a git bundle. Every space,
 * change request and revision the database names is then in the bundles, and nothing in them is
 * half-written; writes made while the bundles are taken may be in them too. Uploads, PDFs and the
 * instance's keys live in the database. A manifest says what the archive holds, with checksums.
 */
export async function backupDeployment(deployment: Deployment, archive: string): Promise<BackupManifest> {
  const work = await mkdtemp(path.join(tmpdir(), 'quire-backup-'));
  try {
    const database = deployment.databaseUrl ? 'postgresql' : 'sqlite';
    if (database === 'sqlite') {
      if (!existsSync(sqliteFile(deployment.dataDir))) throw new BackupError(`no database at ${sqliteFile(deployment.dataDir)}: is DATA_DIR right?`);
      await backupSqlite(sqliteFile(deployment.dataDir), path.join(work, 'quire.sqlite'));
    } else {
      await dumpPostgres(deployment.databaseUrl!, path.join(work, 'quire.pgdump'));
    }
    // SQLite's counted from the copy itself; PostgreSQL's as the database is just after its dump.
    const counts = database === 'sqlite' ? await sqliteCounts(path.join(work, 'quire.sqlite')) : await postgresCounts(deployment.databaseUrl!);
    await mkdir(path.join(work, 'spaces'));
    const spaces = [];
    for (const id of await localSpaceIds(deployment.dataDir)) {
      spaces.push({ id, bundled: await bundleSpaceRepository(deployment.dataDir, id, path.join(work, 'spaces', `${id}.bundle`)) });
    }
    const files = [];
    for (const file of [database === 'sqlite' ? 'quire.sqlite' : 'quire.pgdump', ...readdirSync(path.join(work, 'spaces')).map((name) => `spaces/${name}`)]) {
      const full = path.join(work, file);
      files.push({ path: file, bytes: (await readFile(full)).length, sha256: await sha256Of(full) });
    }
    const manifest: BackupManifest = { format: 1, createdAt: new Date().toISOString(), migration: migrations[migrations.length - 1]!.version, database, counts, spaces, files };
    await writeFile(path.join(work, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await mkdir(path.dirname(path.resolve(archive)), { recursive: true });
    await run('tar', ['czf', path.resolve(archive), '-C', work, '.']);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * A backup made again into an empty DATA_DIR (and, with PostgreSQL, an empty database): every
 * file checked against the manifest first, then the database, then each repository from its
 * bundle. Refused, changing nothing, when the destination holds anything of a deployment.
 */
export async function restoreDeployment(deployment: Deployment, archive: string): Promise<BackupManifest> {
  const work = await mkdtemp(path.join(tmpdir(), 'quire-restore-'));
  try {
    await run('tar', ['xzf', path.resolve(archive), '-C', work]).catch((error: Error) => {
      throw new BackupError(`${archive} is not a Quire backup: ${error.message.split('\n')[0]}`);
    });
    const manifest = JSON.parse(await readFile(path.join(work, 'manifest.json'), 'utf8').catch(() => '{}')) as BackupManifest;
    if (manifest.format !== 1) throw new BackupError(`${archive} is not a Quire backup (no manifest of format 1)`);
    for (const file of manifest.files) {
      const full = path.join(work, file.path);
      if (!existsSync(full) || (await sha256Of(full)) !== file.sha256) throw new BackupError(`${file.path} in ${archive} is missing or damaged (its SHA-256 differs from the manifest's)`);
    }
    const newest = migrations[migrations.length - 1]!.version;
    if (manifest.migration > newest) throw new BackupError(`the backup is at migration ${manifest.migration}, newer than this version of Quire knows (${newest})`);
    if (existsSync(sqliteFile(deployment.dataDir)) || (await localSpaceIds(deployment.dataDir)).length > 0) {
      throw new BackupError(`${deployment.dataDir} already holds a deployment: restore into an empty DATA_DIR`);
    }
    if ((manifest.database === 'postgresql') !== Boolean(deployment.databaseUrl)) {
      throw new BackupError(
        manifest.database === 'postgresql' ? 'the backup is of a PostgreSQL deployment: set QUIRE_DATABASE_URL to an empty database' : 'the backup is of a SQLite deployment: unset QUIRE_DATABASE_URL',
      );
    }
    await mkdir(deployment.dataDir, { recursive: true });
    if (manifest.database === 'sqlite') {
      await copyFile(path.join(work, 'quire.sqlite'), sqliteFile(deployment.dataDir));
    } else {
      if (!(await postgresIsEmpty(deployment.databaseUrl!))) throw new BackupError('the PostgreSQL database of QUIRE_DATABASE_URL is not empty: restore into an empty one');
      await restorePostgres(deployment.databaseUrl!, path.join(work, 'quire.pgdump'));
    }
    for (const space of manifest.spaces) {
      await restoreSpaceRepository(deployment.dataDir, space.id, space.bundled ? path.join(work, 'spaces', `${space.id}.bundle`) : undefined);
    }
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
