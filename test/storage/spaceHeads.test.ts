import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { insertOrganization } from '../../storage/organizations.js';
import { updateSpaceIndex } from '../../storage/search.js';
import { recordSpaceHead, spaceHeadStates, type SpaceHeadState } from '../../storage/spaceHeads.js';
import { insertSpace } from '../../storage/spaces.js';
import { createUser } from '../../storage/users.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

const test = suite('storage: the heads a storage node sweeps when it takes a storage');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-space-heads-'));
let db: Database;
test.before(async () => {
  db = await openDatabase(testingOnPostgres ? await freshTestDatabase('space_heads') : path.join(dir, 'quire.db'));
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a sweep page by page sees every space of the storage once, with its recorded head and indexed revision', async () => {
  const owner = await createUser(db, { email: 'heads@example.com' });
  const organization = await db.transaction((tx) => insertOrganization(tx, { title: 'Heads', createdBy: owner.id }));
  const expected: SpaceHeadState[] = [];
  for (let i = 0; i < 7; i += 1) {
    const storageId = i === 3 ? 'elsewhere' : 'local';
    const space = await db.transaction((tx) =>
      insertSpace(tx, { id: `space-${i}`, organizationId: organization.id, collectionId: null, title: `Space ${i}`, emoji: null, createdBy: owner.id, storageId }),
    );
    const recorded = i % 2 === 0 ? `head-${i}` : null;
    const indexed = i % 3 === 0 ? `indexed-${i}` : null;
    if (recorded) await recordSpaceHead(db, space.id, recorded);
    if (indexed) await db.transaction((tx) => updateSpaceIndex(tx, space.id, indexed, [], []));
    if (storageId === 'local') expected.push({ spaceId: space.id, recorded, indexed });
  }
  // Pages of two: each bounded by the last id of the one before, as reconcileStorage reads them.
  const swept: SpaceHeadState[] = [];
  for (let after = ''; ;) {
    const page = await spaceHeadStates(db, 'local', after, 2);
    if (page.length === 0) break;
    assert.ok(page.length <= 2);
    swept.push(...page);
    after = page.at(-1)!.spaceId;
  }
  assert.equal(swept, expected);
});

test.run();
