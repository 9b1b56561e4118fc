import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPostgresDatabase } from '../storage/postgresAdmin.js';

/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb into a temporary folder, a server
 * listening on a Unix socket in that folder only (no TCP port to race for), trust authentication.
 * The server refuses to run as root, so as root it runs as the `postgres` user the package makes.
 */
export interface PostgresCluster {
  /** The connection URL of a database of the cluster. */
  url(database: string): string;
  createDatabase(name: string, template?: string): Promise<void>;
  /** Fast shutdown; the folder goes too. */
  stop(): Promise<void>;
  /** What `process.on('exit')` can do: immediate shutdown, synchronously. */
  stopNow(): void;
  /** Immediate shutdown, as a crash would leave it; `start` brings it back over the same folder. */
  crash(): void;
  start(): void;
  readonly dir: string;
}

export function postgresBinaries(): string {
  const configured = process.env.QUIRE_POSTGRES_BIN;
  if (configured) return configured;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').filter((name) => existsSync(`/usr/lib/postgresql/${name}/bin/initdb`)) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error('no PostgreSQL server binaries: run scripts/postgresql.sh or set QUIRE_POSTGRES_BIN');
  return `/usr/lib/postgresql/${newest}/bin`;
}

/** `durable`: fsync on, as a production server runs (the benchmarks); off by default, for the tests' speed. */
export async function startPostgresCluster(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-pg-'));
  if (asRoot) chownSync(dir, uid('postgres'), gid('postgres'));
  const data = path.join(dir, 'data');
  const spawnTool = (tool: string, args: string[]) =>
    asRoot ? spawnSync('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args], { encoding: 'utf8' }) : spawnSync(path.join(bin, tool), args, { encoding: 'utf8' });
  const run = (tool: string, args: string[]) => {
    const result = spawnTool(tool, args);
    if (result.status !== 0) throw new Error(`${tool} failed: ${result.stderr || result.stdout}`);
  };
  const user = asRoot ? 'postgres' : (process.env.USER ?? 'postgres');
  run('initdb', ['-D', data, '-U', user, '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  // Without fsync, durable against a crash of the server (what the tests do to it), not of the machine.
  const settings = `-k ${dir} -c listen_addresses= -c max_connections=400 -c shared_buffers=64MB${options.durable ? '' : ' -c fsync=off -c full_page_writes=off'}`;
  const start = () => run('pg_ctl', ['-D', data, '-o', settings, '-l', path.join(dir, 'log'), '-w', 'start']);
  start();
  const url = (database: string) => `postgresql://${user}@${encodeURIComponent(dir)}/${database}`;
  let creating = Promise.resolve();
  return {
    dir,
    url,
    createDatabase(name, template) {
      // One at a time: PostgreSQL refuses to copy a template while another copy reads it.
      const created = creating.then(() => createPostgresDatabase(url('postgres'), name, template));
      creating = created.catch(() => undefined);
      return created;
    },
    async stop() {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
    stopNow() {
      spawnTool('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']); // whatever it answers, the folder goes
      rmSync(dir, { recursive: true, force: true });
    },
    crash() {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    },
    start,
  };
}

function uid(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

function gid(user: string): number {
  return Number(spawnSync('id', ['-g', user], { encoding: 'utf8' }).stdout.trim());
}
