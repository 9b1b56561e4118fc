// `npm run -s admin -- <command>`: operator commands over DATA_DIR, with the server running or not.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { databaseLocation, openDatabase, type Database } from '../../storage/db.js';
import { memberRoles, type MemberRole } from '../../storage/members.js';
import { listOrganizationsAll } from '../../storage/organizations.js';
import { findSpace } from '../../storage/spaces.js';
import { findStorage } from '../../storage/storages.js';
import { repackSpace } from '../../domain/git/index.js';
import { closeWorkerPool, localSpaceRepositories } from '../../engine/index.js';
import { JobClient } from '../../workflows/client.js';
import { listTokens } from '../../storage/tokens.js';
import { findUserByEmail, listUsers } from '../../storage/users.js';
import {
  addMemberByOperator,
  createOrganization,
  createUserByOperator,
  deleteOrganizationByOperator,
  issueTokenByOperator,
  revokeTokenByOperator,
  userByOperator,
  type Refused,
} from '../../domain/organizations/index.js';
import { passwordProblem, setPassword } from '../../domain/accounts/index.js';
import { readSettings } from '../../config/index.js';
import { applySettings } from '../../domain/common/processSettings.js';
import { configFromEnv, configFromSettings, parseDuration } from '../config.js';
import { exportSite, SiteExportError } from './siteExport.js';
import { backupDeployment, BackupError, restoreDeployment, type Deployment } from '../../domain/backups/index.js';

const usage = `Usage: npm run -s admin -- <command> [options]

  user create --email <email> [--name <display name>]   create a user (email treated as verified)
  user list                                              list users
  user password --email <email>                          set the user's password for the web app, read from
                                                         stdin (its first line); their sessions end
  org create --title <title> --owner <email>             create an organization; the owner becomes its admin
  org list                                               list organizations
  org delete --id <organizationId>                       delete an organization: its spaces go to the bin, each
                                                         purged by its job after QUIRE_SPACE_RETENTION (Temporal
                                                         must answer: TEMPORAL_ADDRESS, or npm start's dev server);
                                                         its members, teams, invitations and settings go at once
  member add --org <organizationId> --email <email> [--role <role|guest>]
  token create --email <email> [--label <label>] [--expires <duration>]
                                                         print a new token (creates the user if missing);
                                                         --expires 30d (or 12h, 90m…): it stops working after that
  token list --email <email>                             list a user's tokens (never their values): id, created,
                                                         expires, last used (to the minute), label
  token revoke --id <tokenId>                            revoke a token
  space repack <spaceId>                                 pack the space's repository now (git gc), as the
                                                         maintenance schedule does past QUIRE_REPACK_LOOSE_OBJECTS
  space move <spaceId> --to <storage> [--release-after <duration>]
                                                         move the space's repository to another storage (storage
                                                         nodes): its writes answer 503 while it is copied and
                                                         checked; waits for the move (a Temporal job) to end. The
                                                         old copy is removed --release-after the switch (1m)
  backup <file>                                          write a consistent backup of this deployment while it
                                                         serves: the database (SQLite's online backup, or pg_dump),
                                                         then every space repository of this node as a git bundle,
                                                         with a manifest of counts and checksums (docs/operations.md)
  restore <file>                                         make a backup again into an empty DATA_DIR (and, with
                                                         QUIRE_DATABASE_URL, an empty PostgreSQL database)
  site export <siteId> <dir>                             write a public (or unlisted) published site as static
                                                         files: relative links, .md twins, llms.txt, redirects
                                                         as refresh pages, a Pagefind search index

All state is under DATA_DIR (default ./data).`;

class UsageError extends Error {}

/** All of stdin (a pipe, a file or what is typed until end of input). */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function durationOption(value: string, name: string): number {
  try {
    return parseDuration(value, `--${name}`);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

const required = (value: string | undefined, name: string) => {
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
};

/** A domain command's answer, or its refusal as a usage error. */
function accepted<T extends object | true>(outcome: T | Refused): T {
  if (typeof outcome === 'object' && 'refused' in outcome) throw new UsageError(outcome.refused);
  return outcome;
}

/** Deleted through the domain command: Temporal must answer, for each space's purge job. */
async function deleteOrganization(db: Database, organizationId: string): Promise<string> {
  const config = configFromEnv();
  const jobs = new JobClient(config.temporal);
  try {
    const deleted = accepted(await deleteOrganizationByOperator({ db, jobs, retentionMs: config.spaceRetentionMs }, organizationId));
    return `deleted ${organizationId} (${deleted.title}): ${deleted.spaces} spaces in the bin, purged after ${describeDuration(config.spaceRetentionMs)}`;
  } finally {
    await jobs.close();
  }
}

/** Starts the space's move and waits for it to end: a Temporal job run by both storages' workers. */
async function moveSpace(db: Database, spaceId: string, to: string, releaseAfterMs: number): Promise<string> {
  const space = await findSpace(db, spaceId);
  if (!space) throw new UsageError(`no live space with id ${spaceId}`);
  if (space.storageId === to) throw new UsageError(`space ${spaceId} is already on storage ${to}`);
  const storage = await findStorage(db, to);
  if (!storage?.nodeUrl) throw new UsageError(storage ? `storage ${to} has no node serving it right now` : `no storage ${to}: a node started with QUIRE_STORAGE=${to} makes it`);
  const jobs = new JobClient(configFromEnv().temporal);
  try {
    const move = await jobs.startSpaceMove({ spaceId, from: space.storageId, to }, releaseAfterMs);
    return await move.result();
  } finally {
    await jobs.close();
  }
}

async function backupOrRestore(command: 'backup' | 'restore', file: string | undefined, deployment: Deployment): Promise<string> {
  if (!file) throw new UsageError(`${command} <file> needs the archive's path`);
  const started = performance.now();
  try {
    const manifest = command === 'backup' ? await backupDeployment(deployment, file) : await restoreDeployment(deployment, file);
    const counts = Object.entries(manifest.counts)
      .map(([table, count]) => `${count} ${table.replace(/_/g, ' ')}`)
      .join(', ');
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    return command === 'backup'
      ? `backed up ${counts} and ${manifest.spaces.length} repositories to ${file} in ${seconds} s`
      : `restored ${counts} and ${manifest.spaces.length} repositories from ${file} into ${deployment.dataDir} in ${seconds} s`;
  } catch (error) {
    throw error instanceof BackupError ? new UsageError(error.message) : error;
  }
}

async function run(db: Database, [noun, verb, subject, target]: string[], options: Record<string, string | undefined>, dataDir: string): Promise<string> {
  switch (`${noun} ${verb}`) {
    case 'user create': {
      return accepted(await createUserByOperator(db, { email: required(options.email, 'email'), displayName: options.name })).id;
    }
    case 'user list':
      return (await listUsers(db)).map((u) => `${u.id}\t${u.email}\t${u.displayName}`).join('\n');
    case 'user password': {
      const email = required(options.email, 'email');
      const user = await findUserByEmail(db, email);
      if (!user) throw new UsageError(`no user with email ${email}`);
      const password = (await readStdin()).split(/\r?\n/)[0] ?? '';
      const problem = passwordProblem(password);
      if (problem) throw new UsageError(problem);
      await setPassword(db, user, password);
      return `password set for ${user.email}`;
    }
    case 'org create': {
      const title = required(options.title, 'title');
      const owner = await userByOperator(db, required(options.owner, 'owner'));
      return (await createOrganization(db, { title, ownerId: owner.id })).id;
    }
    case 'org list':
      return (await listOrganizationsAll(db)).map((o) => `${o.id}\t${o.title}`).join('\n');
    case 'org delete':
      return deleteOrganization(db, required(options.id, 'id'));
    case 'member add': {
      const organizationId = required(options.org, 'org');
      const email = required(options.email, 'email');
      const role = options.role === 'guest' ? null : ((options.role ?? 'read') as MemberRole);
      if (role !== null && !memberRoles.includes(role)) throw new UsageError(`--role must be one of ${memberRoles.join(', ')}, guest`);
      return accepted(await addMemberByOperator(db, { organizationId, email, role })).id;
    }
    case 'token create': {
      const email = required(options.email, 'email');
      const expiresAt = options.expires === undefined ? undefined : new Date(Date.now() + durationOption(options.expires, 'expires'));
      return issueTokenByOperator(db, { email, label: options.label, expiresAt });
    }
    case 'token list': {
      const email = required(options.email, 'email');
      const user = await findUserByEmail(db, email);
      if (!user) throw new UsageError(`no user with email ${email}`);
      const time = new Date().toISOString();
      return (await listTokens(db, user.id))
        .map((t) => {
          const expires = t.expiresAt === null ? 'never expires' : `${t.expiresAt <= time ? 'expired' : 'expires'} ${t.expiresAt}`;
          return `${t.id}\t${t.createdAt}\t${expires}\t${t.lastUsedAt ? `last used ${t.lastUsedAt}` : 'never used'}\t${t.label ?? ''}`;
        })
        .join('\n');
    }
    case 'token revoke':
      accepted(await revokeTokenByOperator(db, required(options.id, 'id')));
      return 'revoked';
    case 'space repack': {
      const spaceId = required(subject, 'spaceId (space repack <spaceId>)');
      if (!(await findSpace(db, spaceId))) throw new UsageError(`no live space with id ${spaceId}`);
      const outcome = await repackSpace({ repositories: localSpaceRepositories(dataDir) }, spaceId);
      return `repacked ${spaceId} in ${outcome.ms} ms: ${outcome.looseBefore} loose objects before, ${outcome.looseAfter} after`;
    }
    case 'space move':
      return moveSpace(db, required(subject, 'spaceId (space move <spaceId> --to <storage>)'), required(options.to, 'to'), durationOption(options['release-after'] ?? '1m', 'release-after'));
    case 'site export': {
      const siteId = required(subject, 'siteId (site export <siteId> <dir>)');
      const outDir = path.resolve(required(target, 'dir (site export <siteId> <dir>)'));
      const config = configFromEnv();
      const publicBase = config.publicUrl ?? `http://localhost:${config.port}`;
      const exported = await exportSite({ db, repositories: localSpaceRepositories(dataDir), dataDir }, { siteId, publicBase, outDir })
        .catch((error) => {
          throw error instanceof SiteExportError ? new UsageError(error.message) : error;
        })
        .finally(() => closeWorkerPool());
      return `exported ${exported.pages} pages and ${exported.files} files of site ${siteId} to ${outDir} in ${exported.ms} ms`;
    }
    default:
      throw new UsageError(noun ? `unknown command: ${[noun, verb].filter(Boolean).join(' ')}` : 'no command given');
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      title: { type: 'string' },
      owner: { type: 'string' },
      org: { type: 'string' },
      role: { type: 'string' },
      label: { type: 'string' },
      id: { type: 'string' },
      expires: { type: 'string' },
      to: { type: 'string' },
      'release-after': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  const settings = readSettings();
  applySettings(settings);
  const { dataDir, databaseUrl } = configFromSettings(settings);
  // A backup reads the database and repositories as they are; a restore must find them absent: neither opens (nor migrates) the database.
  if (positionals[0] === 'backup' || positionals[0] === 'restore') {
    console.log(await backupOrRestore(positionals[0], positionals[1], { dataDir, ...(databaseUrl ? { databaseUrl } : {}) }));
    return;
  }
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase(databaseLocation(dataDir, databaseUrl));
  try {
    const output = await run(db, positionals, values as Record<string, string | undefined>, dataDir);
    if (output) console.log(output);
  } finally {
    await db.close();
  }
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`admin: ${error.message}\n\n${usage}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});

/** 604800000 as "7d", 90000 as "90s": a duration as the settings write it. */
function describeDuration(ms: number): string {
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const)
    if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}
