import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { bootstrappedService } from '../helpers/bootstrappedService.js';
import { gitValue as git } from '../helpers/gitClient.js';

const test = suite('git pushes and a killed server');
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-push-crash-'));
const work = mkdtempSync(path.join(tmpdir(), 'quire-push-crash-work-'));
const services = bootstrappedService(dataDir);
const token = services.token;
test.after(async () => {
  await services.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

const { start, call } = services;

const gitEnv = { PATH: process.env.PATH ?? '', HOME: work, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
const gitAsync = (cwd: string, ...args: string[]) => new Promise<number>((resolve) => execFile('git', args, { cwd, env: gitEnv }, (error) => resolve(error ? 1 : 0)));

test('SIGKILL while pushes are under way: after a restart the repository is fsck-clean, main unmoved, every change request readable, and pushes work', async () => {
  let service = await start();
  const organization = (await call(service, 'GET', '/v1/orgs')).body.items[0].id;
  const space = (await call(service, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Pushed', template: { id: 'getting-started' } })).body;
  const remote = () => `${service.url.replace('://', `://w:${token}@`)}/git/${space.id}.git`;
  const clone = path.join(work, 'clone');
  git(work, 'clone', '--quiet', remote(), clone);
  const gitdir = spaceGitdir(dataDir, space.id);

  // How many pushes the kill cut short (git saw the connection go): the kills must land during pushes.
  let cut = 0;
  for (const [attempt, delayMs] of [50, 150, 300, 600].entries()) {
    // A commit of 400 new pages: a pack git keeps, checked page by page in the hooks.
    for (let page = 0; page < 400; page += 1) writeFileSync(path.join(clone, `page-${attempt}-${page}.md`), `# Page ${page}\n\nAttempt ${attempt}, ${randomUUID()}.\n`);
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', `Attempt ${attempt}`);
    git(clone, 'remote', 'set-url', 'origin', remote());
    const pushed = gitAsync(clone, 'push', '--quiet', 'origin', `HEAD:refs/for/main`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await service.stop('SIGKILL');
    if ((await pushed) !== 0) cut += 1;
    service = await start();
    execFileSync('git', ['--git-dir', gitdir, 'fsck', '--no-progress', '--no-dangling'], { env: gitEnv });
    assert.is((await call(service, 'GET', `/v1/spaces/${space.id}`)).body.revision, space.revision, 'main did not move');
    const changeRequests = (await call(service, 'GET', `/v1/spaces/${space.id}/change-requests`)).body.items as Array<{ number: number; revision: string }>;
    for (const changeRequest of changeRequests) {
      const read = await call(service, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequest.number}/content`);
      assert.is(read.status, 200, `change request #${changeRequest.number} reads after the crash`);
    }
  }
  assert.ok(cut >= 1, `a kill landed during a push in ${cut} of 4 attempts`);
  git(clone, 'remote', 'set-url', 'origin', remote());
  assert.is(await gitAsync(clone, 'push', '--quiet', 'origin', 'HEAD:refs/for/main'), 0, 'a push after the restarts lands');
  await service.stop('SIGTERM');
});

test.run();
