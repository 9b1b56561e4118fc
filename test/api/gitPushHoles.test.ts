import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { flushPacket, pktLine } from '../../engine/git/pktLine.js';
import { withRepositoryLock } from '../../engine/lock.js';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import { git, ok } from '../helpers/gitClient.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

/**
 * What the probe of the git remote found (issue 50), each refused now: checks bypassed with a
 * forged old id, a push lost to a merge it raced, `--atomic` that wasn't, a thousand refs in one
 * push, any object by its id over protocol v2, ref names git refuses, an empty merge with one
 * parent twice, symbolic links, and a 400 MB page read whole by the checks.
 */
const test = suite('git remote: the probe’s holes, closed');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));
const work = mkdtempSync(path.join(tmpdir(), 'quire-git-holes-'));
test.after(() => rmSync(work, { recursive: true, force: true }));

const zero = '0'.repeat(40);
const remote = (spaceId: string) => `${t.url.replace('://', `://writer:${fx.admin.token}@`)}/git/${spaceId}.git`;
let counter = 0;

async function spaceWithClone(title: string): Promise<{ space: { id: string }; clone: string }> {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title, template: { id: 'getting-started' } } })).body;
  const clone = path.join(work, `clone-${(counter += 1)}`);
  await ok(work, 'clone', '--quiet', remote(space.id), clone);
  return { space, clone };
}

async function commitAll(clone: string, message: string): Promise<string> {
  await ok(clone, 'add', '-A');
  await ok(clone, 'commit', '-qm', message);
  return ok(clone, 'rev-parse', 'HEAD');
}

/** A pack of the commits `tips` reach beyond `exclude`, made by git. */
function packOf(clone: string, tips: string[], exclude: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['pack-objects', '--stdout', '--revs', '--quiet'], { cwd: clone });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks)) : reject(new Error(`git pack-objects exited with ${code}`))));
    child.stdin.end([...tips, ...exclude.map((oid) => `^${oid}`)].join('\n') + '\n');
  });
}

/**
 * A push as a crafted client sends it (receive-pack over smart HTTP): these commands, this pack.
 * Resolves with git's report (`ok <ref>`, `ng <ref> <reason>`) and the `remote:` lines.
 */
async function rawPush(spaceId: string, commands: string[], pack: Buffer): Promise<{ status: number; report: string[]; messages: string }> {
  const lines = commands.map((command, index) => pktLine(index === 0 ? `${command}\0report-status side-band-64k agent=probe\n` : `${command}\n`));
  const response = await fetch(`${t.url}/git/${spaceId}.git/git-receive-pack`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`writer:${fx.admin.token}`).toString('base64')}`, 'content-type': 'application/x-git-receive-pack-request' },
    body: Buffer.concat([...lines, flushPacket, pack]),
  });
  const body = Buffer.from(await response.arrayBuffer());
  const report: string[] = [];
  let messages = '';
  let reportBytes = Buffer.alloc(0);
  for (let at = 0; at + 4 <= body.length;) {
    const length = parseInt(body.toString('latin1', at, at + 4), 16);
    if (length === 0) {
      at += 4;
      continue;
    }
    const data = body.subarray(at + 5, at + length);
    if (body[at + 4] === 1) reportBytes = Buffer.concat([reportBytes, data]);
    else if (body[at + 4] === 2) messages += data.toString('utf8');
    at += length;
  }
  for (let at = 0; at + 4 <= reportBytes.length;) {
    const length = parseInt(reportBytes.toString('latin1', at, at + 4), 16);
    if (length === 0) {
      at += 4;
      continue;
    }
    report.push(reportBytes.toString('utf8', at + 4, at + length).trim());
    at += length;
  }
  return { status: response.status, report, messages };
}

const changeRequests = async (spaceId: string) =>
  (await t.call('GET', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token })).body.items as Array<{ id: string; number: number; status: string }>;
const main = (spaceId: string) => git(spaceGitdir(t.dataDir, spaceId), 'rev-parse', 'refs/heads/main').then((run) => run.stdout.trim());

test('a forged old id on refs/for/main checks the pushed commit against main, not against the commit the client names', async () => {
  const { space, clone } = await spaceWithClone('Forged');
  const base = await ok(clone, 'rev-parse', 'HEAD');
  writeFileSync(path.join(clone, 'broken.md'), '---\n- a list, not a mapping\n---\n# Broken\n');
  const bad = await commitAll(clone, 'Bad frontmatter');
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nA harmless edit on top.\n');
  const tip = await commitAll(clone, 'Harmless');
  const pushed = await rawPush(space.id, [`${bad} ${tip} refs/for/main`], await packOf(clone, [tip], [base]));
  assert.match(pushed.messages, /broken\.md:2: the frontmatter must be a YAML mapping/, pushed.messages);
  assert.ok(!pushed.report.some((line) => line.startsWith('ok ')), pushed.report.join('\n'));
  assert.equal(await changeRequests(space.id), [], 'no change request was opened');
});

test('a ref name git refuses is refused whole: main does not move for "refs/heads/main trailing words"', async () => {
  const { space, clone } = await spaceWithClone('Names');
  const before = await main(space.id);
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nRenamed?\n');
  const tip = await commitAll(clone, 'Edit');
  const pack = await packOf(clone, [tip], [before]);
  for (const ref of ['refs/heads/main trailing words', 'refs/heads/ma..in', 'refs/heads/main.lock']) {
    const pushed = await rawPush(space.id, [`${before} ${tip} ${ref}`], pack);
    assert.ok(!pushed.report.some((line) => line.startsWith('ok ')), `${ref}: ${pushed.report.join(' | ')}`);
    assert.is(await main(space.id), before, `${ref}: main did not move`);
  }
});

test('more than 100 ref updates in one push are refused before any of them is looked at', async () => {
  const { space, clone } = await spaceWithClone('Many refs');
  const before = await main(space.id);
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nOne commit, many refs.\n');
  const tip = await commitAll(clone, 'Edit');
  const commands = Array.from({ length: 101 }, (_, index) => `${zero} ${tip} refs/heads/change-requests/9${index}-many`);
  const pushed = await rawPush(space.id, commands, await packOf(clone, [tip], [before]));
  assert.match(pushed.messages, /this push updates 101 refs; a push may update at most 100/);
  assert.ok(!pushed.report.some((line) => line.startsWith('ok ')));
  assert.is((await git(spaceGitdir(t.dataDir, space.id), 'for-each-ref', 'refs/heads/change-requests/')).stdout, '');
});

test('git push --atomic is refused up front: Quire does not offer it', async () => {
  const { space, clone } = await spaceWithClone('Atomic');
  const before = await main(space.id);
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nAtomic?\n');
  await commitAll(clone, 'Edit');
  const pushed = await git(clone, 'push', '--atomic', 'origin', 'HEAD:main', 'HEAD:refs/heads/not-a-change-request');
  assert.is.not(pushed.code, 0);
  assert.match(pushed.stderr, /does not support --atomic push/);
  assert.is(await main(space.id), before, 'main did not move');
});

test('protocol v2 serves only what the advertised refs reach: a duplicate does not hand out its original’s change requests', async () => {
  const { space, clone } = await spaceWithClone('Original');
  writeFileSync(path.join(clone, 'secret.md'), '# Secret\n\nOnly in the original’s change request.\n');
  const secret = await commitAll(clone, 'Secret draft');
  await ok(clone, 'push', '--quiet', 'origin', 'HEAD:refs/for/main');
  const copy = (await t.call('POST', `/v1/spaces/${space.id}/duplicate`, { token: fx.admin.token })).body;
  const reader = path.join(work, `reader-${(counter += 1)}`);
  await ok(work, 'clone', '--quiet', remote(copy.id), reader);
  const fetched = await git(reader, '-c', 'protocol.version=2', 'fetch', 'origin', secret);
  assert.is.not(fetched.code, 0, 'the original change request’s commit is not served from the duplicate');
  assert.is((await git(reader, 'cat-file', '-e', secret)).code !== 0, true);
});

test('a merge that read the change request before a push landed on it is refused, not merged without the push', async () => {
  const { space, clone } = await spaceWithClone('Raced');
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Raced' } })).body as { id: string };
  const gitdir = spaceGitdir(t.dataDir, space.id);
  const branch = (await git(gitdir, 'for-each-ref', '--format=%(refname)', 'refs/heads/change-requests/')).stdout.trim();
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nA first edit.\n');
  await commitAll(clone, 'First');
  assert.is((await git(clone, 'push', '--quiet', 'origin', `HEAD:${branch}`)).code, 0);
  writeFileSync(path.join(clone, 'late.md'), '# Late\n');
  const late = await commitAll(clone, 'Late');
  // With the space's lock held by the test, the push queues for it first, then the merge, which
  // has read the branch's head by then; the push lands first once the lock is free.
  let release: () => void = () => undefined;
  const holding = withRepositoryLock(gitdir, () => new Promise<void>((resolve) => (release = resolve)));
  const pushing = git(clone, 'push', 'origin', `HEAD:${branch}`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const merging = t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  release();
  await holding;
  const [pushed, merged] = await Promise.all([pushing, merging]);
  // Under load the merge may take the lock first: then the push meets a merged change request.
  if (pushed.code !== 0) {
    assert.match(pushed.stderr, /change request #\d+ is merged: its content can no longer change/);
    assert.is(merged.status, 200, JSON.stringify(merged.body));
    return;
  }
  if (merged.status === 200) {
    assert.is((await git(gitdir, 'merge-base', '--is-ancestor', late, 'refs/heads/main')).code, 0, 'the push git reported as landed is in what was merged');
  } else {
    assert.is(merged.status, 409, JSON.stringify(merged.body));
    assert.match(merged.body.error.message, /changed while it was being merged: merge it again/);
    assert.is((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: fx.admin.token })).body.status, 'open');
    assert.is((await git(gitdir, 'rev-parse', branch)).stdout.trim(), late);
  }
});

test('a push to a change request archived while the push waited for the space’s lock is refused', async () => {
  const { space, clone } = await spaceWithClone('Archived');
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Soon archived' } })).body as { id: string };
  const gitdir = spaceGitdir(t.dataDir, space.id);
  const branch = (await git(gitdir, 'for-each-ref', '--format=%(refname)', 'refs/heads/change-requests/')).stdout.trim();
  const before = (await git(gitdir, 'rev-parse', branch)).stdout.trim();
  writeFileSync(path.join(clone, 'README.md'), '# Introduction\n\nWritten as it was archived.\n');
  await commitAll(clone, 'Late');
  // The test holds the space's lock (as a long write would): the push is checked, reads the change
  // request open, and waits for the lock; meanwhile the change request is archived.
  let release: () => void = () => undefined;
  const holding = withRepositoryLock(gitdir, () => new Promise<void>((resolve) => (release = resolve)));
  const pushing = git(clone, 'push', 'origin', `HEAD:${branch}`);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.is((await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: fx.admin.token, body: { status: 'archived' } })).status, 200);
  release();
  await holding;
  const pushed = await pushing;
  assert.is.not(pushed.code, 0, pushed.stderr);
  assert.match(pushed.stderr, /change request #\d+ is archived: its content can no longer change/);
  assert.is((await git(gitdir, 'rev-parse', branch)).stdout.trim(), before, 'the archived change request’s branch did not move');
});

test('merging an empty change request writes no merge commit with one parent twice', async () => {
  const { space } = await spaceWithClone('Empty');
  const before = await main(space.id);
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: { subject: 'Nothing' } })).body;
  const merged = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`, { token: fx.admin.token });
  assert.is(merged.status, 200, JSON.stringify(merged.body));
  assert.is(await main(space.id), before, 'main stays where it was');
  assert.is((await t.call('GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: fx.admin.token })).body.status, 'merged');
  assert.is((await git(spaceGitdir(t.dataDir, space.id), 'fsck', '--strict', '--no-progress')).code, 0);
});

test('a pushed symbolic link is refused', async () => {
  const { space, clone } = await spaceWithClone('Links');
  const before = await main(space.id);
  symlinkSync('/etc/passwd', path.join(clone, 'passwd.md'));
  await commitAll(clone, 'A link');
  const pushed = await git(clone, 'push', 'origin', 'HEAD:main');
  assert.is.not(pushed.code, 0);
  assert.match(pushed.stderr, /passwd\.md: is a symbolic link; a space holds files and folders only/);
  assert.is(await main(space.id), before);
});

/** The process's peak resident memory so far (VmHWM), in bytes: it only ever grows. */
const peakMemory = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

test('a 400 MB page (400 KB on the wire) is refused by its size without being read', async () => {
  const { space, clone } = await spaceWithClone('Huge');
  const before = await main(space.id);
  // Written by a shell, so the test's own process (the server's) never holds it.
  await new Promise<void>((resolve, reject) =>
    spawn('sh', ['-c', `head -c 400000000 /dev/zero | tr '\\0' 'a' > "${path.join(clone, 'huge.md')}"`]).on('close', (code) => (code === 0 ? resolve() : reject(new Error(`sh exited with ${code}`)))),
  );
  await commitAll(clone, 'Huge');
  const peakBefore = peakMemory();
  const pushed = await git(clone, 'push', 'origin', 'HEAD:refs/for/main');
  assert.is.not(pushed.code, 0);
  assert.match(pushed.stderr, /huge\.md: the file is 400000000 bytes; the limit is 10485760/);
  assert.is(await main(space.id), before);
  assert.equal(await changeRequests(space.id), []);
  const grew = peakMemory() - peakBefore;
  assert.ok(grew < 150 * 1024 * 1024, `the server's peak memory grew by ${Math.round(grew / 1024 / 1024)} MB`);
});

test.run();
