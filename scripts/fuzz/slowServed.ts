// The fuzz run's slow-input phase, for what is served rather than posted (issue 50): a published
// page of large code blocks, a push of a page far over the size limit, a push of a thousand refs.
// Each is timed from the client; one past its limit, or a 500, fails the run as the posted
// inputs do (slowInputs.ts).
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SlowAnswer } from './slowInputs.js';

/** Longest a page or a push may take, from the client: pushes include git's own work on both ends. */
const pageLimitMs = 2000;
const pushLimitMs = 3000;

/** `git push` without blocking this process: its exit status and what git said. */
function push(clone: string, refspecs: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'git',
      ['push', 'origin', ...refspecs],
      { cwd: clone, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0' } },
      (error, _stdout, stderr) => resolve({ code: error ? 1 : 0, stderr }),
    );
  });
}

/**
 * `base`: the API's base URL (ending in /v1). The pushes go to a space of their own, made here:
 * the fixture space has been fuzzed by then, and may be locked (`editMode: locked` is valid data).
 */
export async function slowServedPhase(base: string, token: string, organizationId: string, log: (line: string) => void): Promise<SlowAnswer[]> {
  const slow: SlowAnswer[] = [];
  const origin = base.replace(/\/v1\/?$/, '');
  const made = await fetch(`${origin}/v1/orgs/${organizationId}/spaces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'Served inputs', template: { id: 'getting-started' } }),
  });
  if (!made.ok) throw new Error(`the served-inputs space could not be made: ${made.status} ${await made.text()}`);
  const spaceId = ((await made.json()) as { id: string }).id;
  // Nor the organization's merge rules, which the fuzzing may have set: pushes to main land here.
  const unruled = await fetch(`${origin}/v1/spaces/${spaceId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ mergeRules: { type: 'none' } }),
  });
  if (!unruled.ok) throw new Error(`the served-inputs space's merge rules could not be set: ${unruled.status} ${await unruled.text()}`);
  const work = mkdtempSync(path.join(tmpdir(), 'quire-fuzz-served-'));
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Fuzz', '-c', 'user.email=fuzz@example.com', ...args], { cwd, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' }, encoding: 'utf8' });
  const timed = async (shape: string, where: string, limitMs: number, run: () => Promise<number | string>) => {
    const started = performance.now();
    const status = await run().catch((error: Error) => error.message);
    const ms = performance.now() - started;
    // The page answers 200, the pushes are refused for what they are: anything else is a failure.
    if (ms > limitMs || (status !== 200 && status !== 'refused')) slow.push({ operation: 'served', where, shape, ms: Math.round(ms), status, limitMs });
  };
  try {
    const clone = path.join(work, 'clone');
    git(work, 'clone', '--quiet', `${origin.replace('://', `://fuzz:${token}@`)}/git/${spaceId}.git`, clone);
    // 50 blocks just under the old per-block highlighting limit: 1 MB of code on one page.
    const block = (index: number) =>
      `\`\`\`javascript\n${Array.from({ length: 400 }, (_, line) => `const value${index}_${line} = compute("${line}", ${line} * 2); // step ${line}`)
        .join('\n')
        .slice(0, 19_990)}\n\`\`\``;
    writeFileSync(path.join(clone, 'code.md'), `# Code\n\n${Array.from({ length: 50 }, (_, index) => block(index)).join('\n\n')}\n`);
    const summary = path.join(clone, 'SUMMARY.md');
    writeFileSync(summary, `${readFileSync(summary, 'utf8').trimEnd()}\n* [Code](code.md)\n`);
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', 'Large code blocks');
    const pushedCode = await push(clone, ['HEAD:main']);
    if (pushedCode.code === 0) {
      const api = (method: string, url: string, body?: unknown) =>
        fetch(`${origin}/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(
          (response) => response.json() as Promise<{ id: string; urls: { published: string } }>,
        );
      const site = await api('POST', `/orgs/${organizationId}/sites`, { title: 'Served', spaces: [spaceId] });
      const published = await api('POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
      await timed('huge code blocks', 'a published page of 1 MB of code, first visit', pageLimitMs, async () => {
        const page = await fetch(`${published.urls.published.replace(/\/$/, '')}/code`);
        await page.arrayBuffer();
        return page.status;
      });
    } else {
      const lines = pushedCode.stderr.trim().split('\n');
      const reason = lines.filter((line) => /^remote:|\[(remote )?rejected\]/.test(line)).join(' / ') || lines.pop();
      slow.push({ operation: 'served', where: 'pushing the page of code blocks', shape: 'huge code blocks', ms: 0, status: `refused: ${reason}` });
    }

    execFileSync('sh', ['-c', `head -c 40000000 /dev/zero | tr '\\0' 'a' > huge.md`], { cwd: clone });
    git(clone, 'add', '-A');
    git(clone, 'commit', '-qm', 'A page four times the size limit');
    await timed('huge pushed page', 'a push of a 40 MB page', pushLimitMs, async () => {
      const pushed = await push(clone, ['HEAD:refs/for/main']);
      return pushed.code === 0 ? 'landed' : /the file is \d+ bytes/.test(pushed.stderr) ? 'refused' : `refused otherwise: ${pushed.stderr.trim().split('\n').pop()}`;
    });
    git(clone, 'reset', '--quiet', '--hard', 'HEAD~1');

    await timed('many-ref push', 'a push of 1,000 ref commands', pushLimitMs, async () => {
      const pushed = await push(
        clone,
        Array.from({ length: 1000 }, (_, index) => `HEAD:refs/heads/change-requests/${index + 5000}-fuzz`),
      );
      return pushed.code === 0 ? 'landed' : /may update at most/.test(pushed.stderr) ? 'refused' : `refused otherwise: ${pushed.stderr.trim().split('\n').pop()}`;
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`served inputs: 3 timed, ${slow.length} over their limit or failing`);
  return slow;
}
