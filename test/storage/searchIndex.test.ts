import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sqlite3 from 'sqlite3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { migrations } from '../../storage/migrations/index.js';
import { insertOrganization } from '../../storage/organizations.js';
import { copySpaceIndex, removeSpaceIndex, searchSections, updateSpaceIndex, type IndexedPage } from '../../storage/search.js';
import { excerpt } from '../../storage/searchIndex/excerpt.js';
import { insertSpace } from '../../storage/spaces.js';
import { createUser } from '../../storage/users.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

// The index finds one space's rows through an index on both databases (FTS5: space_id is a
// full-text column since migration 22): these check that a space's rows, and only its, are
// rewritten, copied and removed, and that a search over some spaces keeps to them.
const test = suite('storage: the search index, one space at a time');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-search-index-'));
let db: Database;
let organizationId: string;
let ownerId: string;
test.before(async () => {
  db = await openDatabase(testingOnPostgres ? await freshTestDatabase('search_index') : path.join(dir, 'quire.db'));
  ownerId = (await createUser(db, { email: 'search-index@example.com' })).id;
  organizationId = (await db.transaction((tx) => insertOrganization(tx, { title: 'Search', createdBy: ownerId }))).id;
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const newSpace = async (id?: string) => (await db.transaction((tx) => insertSpace(tx, { id, organizationId, collectionId: null, title: 'Space', emoji: null, createdBy: ownerId }))).id;

const page = (pageId: string, body: string): IndexedPage => ({
  pageId,
  title: `Page ${pageId}`,
  path: pageId,
  ancestors: [],
  contentHash: body,
  sections: [{ id: 's1', title: 'Intro', body }],
});

const pagesFound = async (spaceIds: string[], query: string) => (await searchSections(db, spaceIds, query, 50)).map((hit) => `${hit.spaceId}/${hit.pageId}`).sort();

test('a refresh rewrites the changed pages of its space only', async () => {
  const [a, b] = [await newSpace(), await newSpace()];
  await db.transaction((tx) => updateSpaceIndex(tx, a, 'r1', [page('p1', 'heron lake'), page('p2', 'heron river')], []));
  await db.transaction((tx) => updateSpaceIndex(tx, b, 'r1', [page('p1', 'heron lake'), page('p2', 'heron river')], []));
  await db.transaction((tx) => updateSpaceIndex(tx, a, 'r2', [page('p1', 'kestrel lake')], ['p2']));
  assert.equal(await pagesFound([a, b], 'heron'), [`${b}/p1`, `${b}/p2`]);
  assert.equal(await pagesFound([a, b], 'kestrel'), [`${a}/p1`]);
  assert.equal(await pagesFound([a], 'lake'), [`${a}/p1`]);
});

test('changes worked out from a revision the index has left (another process moved it) are not written', async () => {
  const space = await newSpace();
  assert.ok(await db.transaction((tx) => updateSpaceIndex(tx, space, 'r1', [page('p1', 'avocet')], [], { from: null })));
  assert.not.ok(await db.transaction((tx) => updateSpaceIndex(tx, space, 'r0', [page('p1', 'stilt')], [], { from: null })), 'the index is at r1, not at none');
  assert.equal(await pagesFound([space], 'stilt'), []);
  assert.equal(await pagesFound([space], 'avocet'), [`${space}/p1`]);
  assert.ok(await db.transaction((tx) => updateSpaceIndex(tx, space, 'r2', [page('p1', 'stilt')], [], { from: 'r1' })));
  assert.equal(await pagesFound([space], 'stilt'), [`${space}/p1`]);
});

test('a search over some spaces finds nothing in the others, whether they are few or many', async () => {
  const spaces = await Promise.all(Array.from({ length: 70 }, () => newSpace()));
  for (const spaceId of spaces) await db.transaction((tx) => updateSpaceIndex(tx, spaceId, 'r1', [page('p', 'plover')], []));
  assert.equal(
    await pagesFound(spaces.slice(0, 3), 'plover'),
    spaces
      .slice(0, 3)
      .map((id) => `${id}/p`)
      .sort(),
  );
  assert.equal((await pagesFound(spaces.slice(0, 69), 'plover')).length, 50, 'past the spaces named in the match, the limit still holds');
  assert.equal(await pagesFound(spaces.slice(0, 3), `plover ${spaces[0]}`), [], 'a space’s id is not a word of its text');
  assert.equal(await pagesFound(spaces.slice(0, 69), `plover ${spaces[0]}`), [], 'nor when the spaces are many');
});

test('spaces whose ids differ only in case keep their own rows', async () => {
  const upper = await newSpace('CaseFoldedSpaceId00A');
  const lower = await newSpace('casefoldedspaceid00a');
  await db.transaction((tx) => updateSpaceIndex(tx, upper, 'r1', [page('p', 'grebe')], []));
  await db.transaction((tx) => updateSpaceIndex(tx, lower, 'r1', [page('p', 'grebe')], []));
  assert.equal(await pagesFound([upper], 'grebe'), [`${upper}/p`]);
  await db.transaction((tx) => removeSpaceIndex(tx, upper));
  assert.equal(await pagesFound([upper, lower], 'grebe'), [`${lower}/p`]);
});

test('a copy takes the original space’s rows and no other’s', async () => {
  const [original, other, copy] = [await newSpace(), await newSpace(), await newSpace()];
  await db.transaction((tx) => updateSpaceIndex(tx, original, 'r1', [page('p1', 'curlew')], []));
  await db.transaction((tx) => updateSpaceIndex(tx, other, 'r1', [page('p9', 'curlew')], []));
  await db.transaction((tx) => copySpaceIndex(tx, original, copy));
  assert.equal(await pagesFound([copy], 'curlew'), [`${copy}/p1`]);
});

test('a search over every indexed space, and then over all but a new one: the best hits of the spaces asked, none of the other', async () => {
  // A database of its own: a search naming every space the index holds matches without naming them.
  const own = await openDatabase(testingOnPostgres ? await freshTestDatabase('search_every_space') : path.join(dir, 'every-space.db'));
  try {
    const owner = (await createUser(own, { email: 'every-space@example.com' })).id;
    const organization = (await own.transaction((tx) => insertOrganization(tx, { title: 'Every', createdBy: owner }))).id;
    const space = async () => (await own.transaction((tx) => insertSpace(tx, { organizationId: organization, collectionId: null, title: 'Space', emoji: null, createdBy: owner }))).id;
    const [a, b, c] = [await space(), await space(), await space()];
    await own.transaction((tx) => updateSpaceIndex(tx, a, 'r1', [page('p1', 'osprey'), page('p2', 'osprey osprey osprey nest')], []));
    await own.transaction((tx) => updateSpaceIndex(tx, b, 'r1', [page('p1', 'osprey osprey osprey osprey')], []));
    await own.transaction((tx) => updateSpaceIndex(tx, c, 'r1', [page('p1', 'gull')], []));
    const best = async (spaceIds: string[], limit: number) => (await searchSections(own, spaceIds, 'osprey', limit)).map((hit) => `${hit.spaceId}/${hit.pageId}`);
    assert.equal(await best([a, b, c], 2), [`${b}/p1`, `${a}/p2`]);
    assert.equal(await best([a, b, c], 50), [`${b}/p1`, `${a}/p2`, `${a}/p1`]);
    const d = await space();
    await own.transaction((tx) => updateSpaceIndex(tx, d, 'r1', [page('p1', 'osprey osprey osprey osprey osprey'), page('p2', 'osprey osprey osprey osprey osprey osprey')], []));
    assert.equal(await best([a, b, c], 2), [`${b}/p1`, `${a}/p2`], 'the new space’s better hits take none of the places');
    assert.equal(await best([a, b, c, d], 1), [`${d}/p2`]);
  } finally {
    await own.close();
  }
});

test('a hit’s excerpt shows the words around its match', async () => {
  const spaceId = await newSpace();
  const words = Array.from({ length: 100 }, (_, index) => (index === 60 ? 'Avocets' : `filler${index}`));
  await db.transaction((tx) => updateSpaceIndex(tx, spaceId, 'r1', [page('p', words.join(' '))], []));
  const [hit] = await searchSections(db, [spaceId], 'avocet', 10);
  assert.ok(hit?.excerpt().includes('Avocets'), hit?.excerpt());
  assert.not.ok(hit?.excerpt().includes('filler0 '), 'it starts near the match, not at the top');
});

test('an excerpt: 32 words from four before the first match, accents and case folded, … where the text goes on', () => {
  const body = Array.from({ length: 100 }, (_, index) => (index === 50 ? 'Café,' : `w${index}`)).join(' ');
  assert.is(
    excerpt(body, ['cafe']),
    `…${Array.from({ length: 32 }, (_, index) => (index === 4 ? 'Café' : `w${46 + index}`))
      .join(' ')
      .replace('Café', 'Café,')}…`,
  );
  assert.is(excerpt('a short body about a résumé', ['about', 'resu']), 'a short body about a résumé', 'nothing cut, no …');
  assert.is(
    excerpt(`${Array.from({ length: 40 }, (_, index) => `w${index}`).join(' ')} tail`, ['tail']),
    `…${Array.from({ length: 31 }, (_, index) => `w${index + 9}`).join(' ')} tail`,
    'a match near the end: the last 32 words',
  );
  assert.is(excerpt('words only in the title', ['heading']), 'words only in the title', 'no match in the body: its start');
});

if (!testingOnPostgres) {
  test('an index built before migration 22 is searchable after it, and refreshed one space at a time', async () => {
    const file = path.join(dir, 'before-22.db');
    const old = new sqlite3.Database(file);
    const exec = (sql: string) => new Promise<void>((resolve, reject) => old.exec(sql, (error) => (error ? reject(error) : resolve())));
    for (const migration of migrations.filter((m) => m.version < 22)) await exec(migration.sql);
    await exec(`PRAGMA user_version = 21;
      INSERT INTO search_pages VALUES ('sA', 'p1', 'Old', 'old', '[]', 'h1'), ('sB', 'p1', 'Old', 'old', '[]', 'h1');
      INSERT INTO search_sections (title, body, space_id, page_id, section_id) VALUES ('Intro', 'dunlin', 'sA', 'p1', 's1'), ('Intro', 'dunlin', 'sB', 'p1', 's1');`);
    await new Promise<void>((resolve, reject) => old.close((error) => (error ? reject(error) : resolve())));
    const upgraded = await openDatabase(file);
    try {
      const found = async (query: string) => (await searchSections(upgraded, ['sA', 'sB'], query, 10)).map((hit) => hit.spaceId).sort();
      assert.equal(await found('dunlin'), ['sA', 'sB']);
      const owner = await createUser(upgraded, { email: 'upgrade@example.com' });
      const organization = await upgraded.transaction((tx) => insertOrganization(tx, { title: 'Upgraded', createdBy: owner.id }));
      await upgraded.transaction((tx) => insertSpace(tx, { id: 'sA', organizationId: organization.id, collectionId: null, title: 'A', emoji: null, createdBy: owner.id }));
      await upgraded.transaction((tx) => updateSpaceIndex(tx, 'sA', 'r2', [page('p1', 'sanderling')], []));
      assert.equal(await found('dunlin'), ['sB']);
      assert.equal(await found('sanderling'), ['sA']);
    } finally {
      await upgraded.close();
    }
  });
}

test.run();
