import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { openDatabase, type Database } from '../../storage/db.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';

// Issue 57: an answer built from several reads (a page and its count, clusters and their activity)
// reads them in one snapshot, so a transaction committing between two of them never shows half.
const test = suite('storage: a snapshot sees one state of the database, whatever commits meanwhile');
const dir = mkdtempSync(path.join(tmpdir(), 'quire-snapshots-'));
let db: Database;
test.before(async () => {
  db = await openDatabase(testingOnPostgres ? await freshTestDatabase('snapshots') : path.join(dir, 'quire.db'));
  // A table of the test's own: the migrations' tables have foreign keys to satisfy.
  await db.run('CREATE TABLE snapshot_rows (id TEXT PRIMARY KEY, grp TEXT NOT NULL)');
  await db.run('CREATE TABLE snapshot_counts (grp TEXT PRIMARY KEY, n INTEGER NOT NULL)');
});
test.after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async (read: Pick<Database, 'get'>) => Number((await read.get<{ n: number }>('SELECT COUNT(*) AS n FROM snapshot_rows'))!.n);

test('reads after a commit inside the snapshot still see the state before it; a read outside sees the commit', async () => {
  await db.run("INSERT INTO snapshot_rows VALUES ('a', 'g')");
  const seen = await db.snapshot(async (read) => {
    const before = await count(read);
    await db.transaction(async (tx) => {
      await tx.run("INSERT INTO snapshot_rows VALUES ('b', 'g')");
      await tx.run("INSERT INTO snapshot_rows VALUES ('c', 'g')");
    });
    const outside = await count(db);
    const after = await count(read);
    return { before, outside, after };
  });
  assert.equal(seen, { before: 1, outside: 3, after: 1 });
  assert.is(await db.snapshot(count), 3);
});

test('rows and their counts, read in snapshots while a writer moves rows between groups, always agree', async () => {
  await db.transaction(async (tx) => {
    await tx.run('DELETE FROM snapshot_rows');
    for (let i = 0; i < 40; i += 1) await tx.run('INSERT INTO snapshot_rows VALUES (?, ?)', [`r${i}`, `g${i % 4}`]);
    await tx.run('DELETE FROM snapshot_counts');
    for (let g = 0; g < 4; g += 1) await tx.run('INSERT INTO snapshot_counts VALUES (?, 10)', [`g${g}`]);
  });
  let moving = true;
  // Each move, like a consolidation, reassigns rows and their groups' counts in one transaction.
  const writer = (async () => {
    for (let move = 0; moving; move += 1) {
      await db.transaction(async (tx) => {
        const row = `r${move % 40}`;
        const from = (await tx.get<{ grp: string }>('SELECT grp FROM snapshot_rows WHERE id = ?', [row]))!.grp;
        const to = `g${(Number(from.slice(1)) + 1) % 4}`;
        await tx.run('UPDATE snapshot_rows SET grp = ? WHERE id = ?', [to, row]);
        await tx.run('UPDATE snapshot_counts SET n = n - 1 WHERE grp = ?', [from]);
        await tx.run('UPDATE snapshot_counts SET n = n + 1 WHERE grp = ?', [to]);
      });
    }
  })();
  const disagreements: string[] = [];
  try {
    for (let reading = 0; reading < 300; reading += 1) {
      const { counts, rows } = await db.snapshot(async (read) => {
        const counts = await read.all<{ grp: string; n: number }>('SELECT grp, n FROM snapshot_counts ORDER BY grp');
        // A moment between the two reads, for the writer to commit in.
        await new Promise((resolve) => setImmediate(resolve));
        const rows = await read.all<{ grp: string; n: number }>('SELECT grp, COUNT(*) AS n FROM snapshot_rows GROUP BY grp ORDER BY grp');
        return { counts, rows };
      });
      const stated = counts.map((row) => `${row.grp}:${Number(row.n)}`).join(' ');
      const found = rows.map((row) => `${row.grp}:${Number(row.n)}`).join(' ');
      if (stated !== found) disagreements.push(`reading ${reading}: counts ${stated}, rows ${found}`);
    }
  } finally {
    moving = false;
    await writer;
  }
  assert.equal(disagreements, [], disagreements.slice(0, 5).join('\n'));
});

test('a statement sent after its snapshot ended is refused, not run in the next one', async () => {
  let kept: Pick<Database, 'get'> | undefined;
  await db.snapshot(async (read) => {
    kept = read;
    await count(read);
  });
  const late = await count(kept!).then(
    () => 'ran',
    (error: Error) => error.message,
  );
  assert.match(late, /ended/);
  assert.is(await db.snapshot(count), 40);
});

test.run();
