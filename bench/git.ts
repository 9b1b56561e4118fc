// The git remote issue's figures: a 1,000-page space cloned over Quire's smart HTTP after
// maintenance, against `git http-backend` serving the same repository in the same run; a one-page
// push to a change request's branch until the API shows it; a refused 1,000-page push.
import { execFile, execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repackRepository } from '../engine/git/repack.js';
import { spaceGitdir } from '../engine/spaceRepositories.js';
import { median, quireWithOrganization, spread } from './lib.js';
import { writePages } from './packed.js';
import { httpBackend } from '../test/helpers/gitHttpBackend.js';

const gitEnv = { PATH: process.env.PATH ?? '', HOME: '/tmp', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' };
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], { cwd, env: gitEnv, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/** Wall time of a git command; `expectFailure` for a push that must be refused. */
function timedGit(cwd: string, args: string[], expectFailure = false): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) =>
    execFile('git', args, { cwd, env: gitEnv }, (error, _stdout, stderr) => {
      if (Boolean(error) !== expectFailure) reject(new Error(`git ${args.join(' ')}: ${error ? stderr : 'succeeded, expected a refusal'}`));
      else resolve(performance.now() - started);
    }),
  );
}

export async function benchGit(): Promise<Record<string, string>> {
  const figures: Record<string, string> = {};
  const { dataDir, scratch, organizationId, token, server, api } = await quireWithOrganization();
  const backend = await httpBackend(path.join(dataDir, 'spaces'));
  try {
    const space = await api('POST', `/orgs/${organizationId}/spaces`, { title: 'Cloned', empty: true });
    const remote = `${server.url.replace('://', `://bench:${token}@`)}/git/${space.id}.git`;
    const work = path.join(scratch, 'work');
    git(scratch, 'clone', '--quiet', remote, work);
    writePages(work, 1);
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', '1,000 pages');
    figures['push of 1,000 new pages to main over HTTP (checked by the hooks): ms'] = (await timedGit(work, ['push', '--quiet', 'origin', 'HEAD:main'])).toFixed(0);
    await repackRepository(spaceGitdir(dataDir, space.id));

    const quire: number[] = [];
    const reference: number[] = [];
    for (let round = 0; round < 7; round += 1) {
      for (const [samples, url] of [
        [quire, remote],
        [reference, `${backend.url}/${space.id}.git`],
      ] as const) {
        const into = path.join(scratch, `clone-${round}-${samples === quire ? 'quire' : 'backend'}`);
        samples.push(await timedGit(scratch, ['-c', 'protocol.version=2', 'clone', '--quiet', '--bare', url, into]));
        rmSync(into, { recursive: true, force: true });
      }
    }
    figures['bare clone of the 1,000-page space after maintenance, through Quire: ms (target ≤ 120)'] = spread(quire, 0);
    figures['… the same repository through git http-backend, same run: ms'] = spread(reference, 0);
    figures['… Quire / http-backend, medians (target ≤ 1.5)'] = (median(quire) / median(reference)).toFixed(2);

    writeFileSync(path.join(work, 'README.md'), '# Home\n\nOpened for review.\n');
    git(work, 'add', '-A');
    git(work, 'commit', '-qm', 'Open a change request');
    git(work, 'push', '--quiet', '-o', 'title=Bench', 'origin', 'HEAD:refs/for/main');
    const changeRequest = (await api('GET', `/spaces/${space.id}/change-requests`)).items[0];
    const visible: number[] = [];
    for (let round = 0; round < 10; round += 1) {
      writeFileSync(path.join(work, 'README.md'), `# Home\n\nEdit ${round}.\n`);
      git(work, 'commit', '-qam', `Edit ${round}`);
      const head = git(work, 'rev-parse', 'HEAD');
      const started = performance.now();
      await timedGit(work, ['push', '--quiet', 'origin', `HEAD:${changeRequest.branch ?? `change-requests/${changeRequest.number}-bench`}`]);
      const read = await api('GET', `/spaces/${space.id}/change-requests/${changeRequest.id}`);
      if (read.revision !== head) throw new Error(`the change request shows ${read.revision}, not the pushed ${head}`);
      visible.push(performance.now() - started);
    }
    figures['one-page push to a change request branch until the API shows it: ms (target ≤ 400)'] = spread(visible, 0);

    // git's own floor: the same pushes to a plain local bare copy whose pre-receive hook (a shell script) refuses everything.
    const baseline = path.join(scratch, 'baseline.git');
    git(scratch, 'clone', '--quiet', '--bare', remote, baseline);
    writeFileSync(path.join(baseline, 'hooks', 'pre-receive'), '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const refused: number[] = [];
    const floor: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      git(work, 'checkout', '-q', '--detach', 'origin/main');
      rmSync(path.join(work, `part-0`), { recursive: true, force: true });
      writePages(work, 100 + round);
      writeFileSync(path.join(work, 'SUMMARY.md'), `${git(work, 'show', 'HEAD:SUMMARY.md')}\n* [Missing](missing-${round}.md)\n`);
      git(work, 'add', '-A');
      git(work, 'commit', '-qm', `Refused ${round}`);
      refused.push(await timedGit(work, ['push', '--quiet', 'origin', 'HEAD:refs/for/main'], true));
      floor.push(await timedGit(work, ['-c', 'receive.fsckObjects=true', 'push', '--quiet', baseline, 'HEAD:refs/heads/main'], true));
    }
    figures['a refused push of 1,000 changed pages (SUMMARY.md links a missing file): ms (target ≤ 300)'] = spread(refused, 0);
    figures['… the same pushes to a local bare copy refused by a shell pre-receive hook (git alone): ms'] = spread(floor, 0);
  } finally {
    backend.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
