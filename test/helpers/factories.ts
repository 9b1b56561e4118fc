import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../storage/db.js';
import { addMembership } from '../../storage/members.js';
import { insertOrganization, type OrganizationRecord } from '../../storage/organizations.js';
import { createUser, type UserRecord } from '../../storage/users.js';
import { freshTestDatabase, testingOnPostgres } from './postgres.js';

/**
 * Storage-level factories (as Outline's `server/test/factories.ts`): rows made directly in the
 * database, for suites that test a domain command and need its data, not the HTTP contract that
 * makes it. A database of the test run's kind: an SQLite file in a folder of its own, or on the
 * PostgreSQL pass a new database of the run's cluster.
 */
export interface TestDatabase {
  db: Database;
  /** A folder of the database's own, for the files a command keeps beside it. */
  dataDir: string;
  close(): Promise<void>;
}

export async function testDatabase(label: string): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `quire-${label}-`));
  const db = await openDatabase(testingOnPostgres ? await freshTestDatabase(label) : path.join(dataDir, 'quire.sqlite'));
  return {
    db,
    dataDir,
    async close() {
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let users = 0;

/** A user with a verified email. */
export function user(db: Database, email = `factory-user-${(users += 1)}-${Date.now()}@example.com`): Promise<UserRecord> {
  return createUser(db, { email, emailVerified: true });
}

/** An organization and its admin. */
export async function organization(db: Database, title = 'Factory Docs'): Promise<{ organization: OrganizationRecord; admin: UserRecord }> {
  const admin = await user(db);
  const made = await insertOrganization(db, { title, createdBy: admin.id });
  await addMembership(db, { organizationId: made.id, userId: admin.id, role: 'admin' });
  return { organization: made, admin };
}
