import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RepositoryBusyError } from '../../engine/errors/index.js';
import { withRepositoryLock } from '../../engine/lock.js';

const test = suite('engine: the repository lock bounds every wait');
let root = '';
test.before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'quire-lock-'));
});
test.after(() => rmSync(root, { recursive: true, force: true }));

const gitdirNamed = (name: string) => {
  const gitdir = path.join(root, `${name}.git`);
  mkdirSync(gitdir);
  return gitdir;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a writer queued behind a holder of this process that never ends gives up at its limit', async () => {
  const gitdir = gitdirNamed('hung');
  let release: () => void = () => undefined;
  const hung = withRepositoryLock(gitdir, () => new Promise<void>((resolve) => (release = resolve)));
  await sleep(20);
  const started = Date.now();
  let ran = false;
  const error = await withRepositoryLock(
    gitdir,
    async () => {
      ran = true;
    },
    { waitMs: 300 },
  ).catch((caught: unknown) => caught);
  const waited = Date.now() - started;
  assert.instance(error, RepositoryBusyError);
  assert.match((error as Error).message, /for the 0.3 s this one waited/);
  assert.not.ok(ran, 'its work never ran');
  assert.ok(waited >= 280 && waited < 5_000, `it gave up at its limit, not later: ${waited} ms`);
  release();
  await hung;
  assert.is(await withRepositoryLock(gitdir, async () => 'after'), 'after', 'the lock is free once the holder ends');
});

test('a writer behind one that gave up still waits for the holder: never two holders at once', async () => {
  const gitdir = gitdirNamed('slow');
  const holding: string[] = [];
  const overlaps: string[] = [];
  const hold = (name: string, ms: number) => async () => {
    if (holding.length > 0) overlaps.push(`${name} while ${holding.join(', ')}`);
    holding.push(name);
    await sleep(ms);
    holding.splice(holding.indexOf(name), 1);
    return name;
  };
  const slow = withRepositoryLock(gitdir, hold('slow', 1_000));
  await sleep(20);
  const impatient = withRepositoryLock(gitdir, hold('impatient', 10), { waitMs: 200 }).catch((caught: unknown) => caught);
  const patient = withRepositoryLock(gitdir, hold('patient', 10), { waitMs: 5_000 });
  const patientStarted = Date.now();
  assert.instance(await impatient, RepositoryBusyError, 'the impatient writer gave up');
  assert.is(await slow, 'slow');
  assert.is(await patient, 'patient', 'the one behind it ran once the holder was done');
  assert.ok(Date.now() - patientStarted >= 900, 'and not when the impatient one gave up');
  assert.equal(overlaps, [], 'no two writers ever held the lock together');
});

test.run();
