import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { grantContentRole } from '../../storage/contentGrants.js';
import { openDatabase } from '../../storage/db.js';
import { insertOrganization } from '../../storage/organizations.js';
import { insertSite } from '../../storage/sites.js';
import { insertSiteSpace } from '../../storage/siteStructure.js';
import { insertSpace } from '../../storage/spaces.js';
import { createUser } from '../../storage/users.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

const test = suite('storage: migration 25 removes what transfers left behind before it');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-transfer-leftovers-'));
test.after(() => rmSync(dir, { recursive: true, force: true }));

test("a space moved to another organization leaves the old one's site (its default handed on) and its grants; what stayed is untouched", async () => {
  const location = testingOnPostgres ? await freshTestDatabase('transfer_leftovers') : path.join(dir, 'quire.db');
  let db = await openDatabase(location);
  const owner = await createUser(db, { email: 'owner@example.com' });
  const guest = await createUser(db, { email: 'guest@example.com' });
  const [from, to] = await Promise.all(['From', 'To'].map((title) => db.transaction((tx) => insertOrganization(tx, { title, createdBy: owner.id }))));
  const space = (id: string) => db.transaction((tx) => insertSpace(tx, { id, organizationId: from!.id, collectionId: null, title: id, emoji: null, createdBy: owner.id }));
  const [moved, stayed] = [await space('moved'), await space('stayed')];
  const siteId = await insertSite(db, { organizationId: from!.id, type: 'basic', title: 'Docs', visibility: 'public' });
  for (const [index, spaceId] of [moved.id, stayed.id].entries()) {
    await insertSiteSpace(db, { siteId, sectionId: null, spaceId, path: spaceId, condition: null, hidden: false, isDefault: index === 0, position: index + 1 });
  }
  await db.transaction(async (tx) => {
    for (const target of [moved.id, stayed.id]) await grantContentRole(tx, { organizationId: from!.id, target: { kind: 'space', id: target }, userId: guest.id, role: 'edit' });
  });
  // A transfer as it was written before migration 25: the space's organization, nothing else.
  await db.run('UPDATE spaces SET organization_id = ? WHERE id = ?', [to!.id, moved.id]);
  await db.run(testingOnPostgres ? 'DELETE FROM quire_schema WHERE version >= 25' : 'PRAGMA user_version = 24');
  await db.close();

  db = await openDatabase(location);
  try {
    assert.equal(await db.all('SELECT space_id, is_default FROM site_spaces WHERE site_id = ? ORDER BY position', [siteId]), [{ space_id: stayed.id, is_default: 1 }]);
    assert.equal(await db.all('SELECT target_id FROM content_grants WHERE user_id = ? ORDER BY target_id', [guest.id]), [{ target_id: stayed.id }]);
  } finally {
    await db.close();
  }
});

test.run();
