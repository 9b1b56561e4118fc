import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { gitFs } from '../../engine/internal/gitFs.js';
import { commitContent } from '../../engine/objects/commitObject.js';
import { objectId } from '../../engine/objects/hashObject.js';

const test = suite('engine: commit objects are written as git and isomorphic-git write them');
let dir: string;
test.before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quire-commit-object-'));
});
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('the same bytes, so the same id, for messages and signatures of every shape', async () => {
  const gitdir = path.join(dir, 'repo.git');
  await git.init({ fs: gitFs, gitdir, bare: true });
  const tree = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
  const parents = ['1111111111111111111111111111111111111111', '2222222222222222222222222222222222222222'];
  const cases = [
    { message: 'One line', parents: [], timezoneOffset: 0 },
    { message: '\n\nLeading blank lines\r\nand a CR\n\n\n', parents: parents.slice(0, 1), timezoneOffset: 0 },
    { message: 'Merge change request #3: Ünïcode ✓\n\nBody.\n', parents, timezoneOffset: -120 },
    { message: 'West of UTC', parents: [], timezoneOffset: 330 },
  ];
  for (const { message, parents: parentIds, timezoneOffset } of cases) {
    const person = { name: 'Ada Lovelace', email: 'ada@example.com', timestamp: 1_795_000_000, timezoneOffset };
    const theirs = await git.writeCommit({ fs: gitFs, gitdir, commit: { message, tree, parent: parentIds, author: person, committer: person } });
    assert.is(objectId('commit', commitContent({ tree, parents: parentIds, author: person, committer: person, message })), theirs, JSON.stringify(message));
  }
});

test.run();
