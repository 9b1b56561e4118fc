// Issue 27's figure: pathological inputs of every kind posted at 1 MB (64 KB for comments, the most
// they take) while another user's GET /user is timed; its p99 must stay ≤ 50 ms. Runs the built
// server (dist/) as its own process.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../storage/db.js';
import { addMembership } from '../storage/members.js';
import { createToken } from '../storage/tokens.js';
import { createUser } from '../storage/users.js';
import { buildQuire, fmt, sharedTemporalAddress, spawnQuire, tempDataDir } from './lib.js';
import { seedOrganization } from './seed.js';

const megabyte = 1_000_000;
const fill = (unit: string, chars: number) => unit.repeat(Math.floor(chars / unit.length));
const halves = (open: string, close: string, chars: number) => `${fill(open, chars / 2 - 1)}x${fill(close, chars / 2 - 1)}`;

/** Inputs that made some parser or pattern super-linear, by name: `chars` long. */
const inputs: Record<string, (chars: number) => string> = {
  'nested brackets': (chars) => halves('[', ']', chars),
  'flat brackets': (chars) => fill('[a] ', chars),
  'nested emphasis': (chars) => halves('*', '*', chars),
  'unclosed emphasis': (chars) => fill('*a ', chars),
  'run of .': (chars) => fill('.', chars),
  'run of @': (chars) => fill('@', chars),
  'run of *': (chars) => fill('*', chars),
  'run of _': (chars) => fill('_', chars),
  'run of `': (chars) => fill('`', chars),
  'dotted words (a.a.a…)': (chars) => fill('a.', chars),
  'huge table': (chars) => `| a | b | c | d |\n|---|---|---|---|\n${fill('| [x](y) | **b** | `c` | d |\n', chars - 40)}`,
  'many links': (chars) => fill('- [A link](guides/page.md) and [another](https://example.com/x)\n', chars),
};

async function seedReader(dataDir: string, organizationId: string): Promise<string> {
  const db = await openDatabase(path.join(dataDir, 'quire.sqlite'));
  const token = await db.transaction(async (tx) => {
    const user = await createUser(tx, { email: 'bystander@example.com' });
    await addMembership(tx, { organizationId, userId: user.id, role: 'read' });
    return (await createToken(tx, user.id)).token;
  });
  await db.close();
  return token;
}

export async function benchSlowInput(): Promise<Record<string, string>> {
  buildQuire();
  const TEMPORAL_ADDRESS = await sharedTemporalAddress();
  const dataDir = tempDataDir();
  const { organizationId, token } = await seedOrganization(dataDir, 1);
  const bystander = await seedReader(dataDir, organizationId);
  const server = await spawnQuire({ DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_ADDRESS, QUIRE_BODY_LIMIT: String(2 * megabyte) });
  // What the server said last, shown if the benchmark fails: a crash under these inputs is the defect to report.
  let said = '';
  for (const stream of [server.child.stdout!, server.child.stderr!]) stream.on('data', (chunk: Buffer) => (said = (said + chunk.toString()).slice(-6000)));
  const call = async (method: string, url: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${server.url}/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = (text ? JSON.parse(text) : {}) as { id: string };
    return { status: response.status, ms: performance.now() - started, body: parsed };
  };
  const figures: Record<string, string> = {};
  try {
    const space = (await call('POST', `/orgs/${organizationId}/spaces`, { title: 'Attacked' })).body;
    const changeRequest = (await call('POST', `/spaces/${space.id}/change-requests`, { subject: 'Inputs' })).body;
    // The bystander: one GET /user every 10 ms, for as long as the inputs are being posted.
    const samples: number[] = [];
    const phaseOf: string[] = [];
    const failures: string[] = [];
    let posting = true;
    let current = 'setup';
    const probe = (async () => {
      while (posting) {
        const started = performance.now();
        try {
          const response = await fetch(`${server.url}/v1/user`, { headers: { authorization: `Bearer ${bystander}` } });
          await response.arrayBuffer();
          if (response.status !== 200) failures.push(`${response.status} while posting ${current}`);
        } catch (error) {
          failures.push(`${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message} while posting ${current}`);
        }
        samples.push(performance.now() - started);
        phaseOf.push(current);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const answers: string[] = [];
    for (const [name, make] of Object.entries(inputs)) {
      current = name;
      const page = await call('POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        changes: [{ operation: 'insert_page', title: name, document: { markdown: make(megabyte) } }],
      });
      const comment = await call('POST', `/spaces/${space.id}/comments`, { body: { markdown: make(64 * 1024 - 64) } });
      answers.push(`${name}: page ${page.status} in ${fmt(page.ms, 0)} ms, comment ${comment.status} in ${fmt(comment.ms, 0)} ms`);
    }
    const conversation = await call('POST', `/orgs/${organizationId}/conversations`, {
      id: 'dots',
      parts: Array.from({ length: 10 }, () => ({ type: 'message', role: 'user', body: fill('a.', 95_000) })),
    });
    answers.push(`conversation of ten 95 KB 'a.a.a…' parts: ${conversation.status} in ${fmt(conversation.ms, 0)} ms`);
    // Issue 50's shapes, served rather than posted: a heavy published page, a huge pushed page, a thousand refs.
    for (const [name, run] of Object.entries(servedShapes({ url: server.url, token, organizationId, spaceId: space.id as string, call }))) {
      current = name;
      const started = performance.now();
      const outcome = await run();
      answers.push(`${name}: ${outcome} in ${fmt(performance.now() - started, 0)} ms`);
    }
    posting = false;
    await probe;
    for (const phase of Object.keys(servedShapes({ url: '', token: '', organizationId: '', spaceId: '', call }))) {
      const during = samples.filter((_, index) => phaseOf[index] === phase).sort((a, b) => a - b);
      if (during.length) figures[`another user's GET /user while serving ${phase}: p99 ms, n=${during.length}`] = fmt(during[Math.min(during.length - 1, Math.floor(during.length * 0.99))]!);
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;
    figures[`another user's GET /user while they were posted: p99 ms (target ≤ 50), n=${samples.length}`] = fmt(at(0.99));
    figures['… median ms'] = fmt(at(0.5));
    figures['… max ms'] = fmt(samples.at(-1)!);
    figures['… failed requests'] = failures.length ? `${failures.length}: ${[...new Set(failures)].join('; ')}` : '0';
    for (const [index, line] of answers.entries()) figures[`input ${index + 1}`] = line;
  } catch (error) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    console.error(`the server (exit code ${server.child.exitCode}, signal ${server.child.signalCode}) said last:\n${said}`);
    throw error;
  } finally {
    await server.stop();
  }
  return figures;
}

/**
 * What issue 50's probe served slowly: a published page of 200 code blocks just under 20,000
 * characters (4 MB, pushed with git, read on its first visit); a push of a 400 MB page (400 KB on
 * the wire), refused; and one push of 1,000 ref commands, refused. Each answers its outcome.
 */
function servedShapes(input: {
  url: string;
  token: string;
  organizationId: string;
  spaceId: string;
  call: (method: string, url: string, body?: unknown) => Promise<{ status: number; body: { id: string } }>;
}): Record<string, () => Promise<string>> {
  const work = path.join(tmpdir(), `quire-bench-pushes-${process.pid}`);
  const remote = () => `${input.url.replace('://', `://bench:${input.token}@`)}/git/${input.spaceId}.git`;
  const clone = path.join(work, 'clone');
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: clone,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' },
      maxBuffer: 64 * 1024 * 1024,
    });
  const ready = () => {
    if (existsSync(clone)) return;
    mkdirSync(work, { recursive: true });
    execFileSync('git', ['clone', '--quiet', remote(), clone]);
  };
  return {
    'a published page of 4 MB of code, first visit': async () => {
      ready();
      const block = (index: number) =>
        `\`\`\`javascript\n${Array.from({ length: 400 }, (_, line) => `const value${index}_${line} = compute("${line}", ${line} * 2); // step ${line}`)
          .join('\n')
          .slice(0, 19_990)}\n\`\`\``;
      writeFileSync(path.join(clone, 'code.md'), `# Code\n\n${Array.from({ length: 200 }, (_, index) => `## Part ${index}\n\n${block(index)}`).join('\n\n')}\n`);
      writeFileSync(path.join(clone, 'SUMMARY.md'), '# Table of contents\n\n* [Code](code.md)\n');
      git('add', '-A');
      git('commit', '-qm', 'Code');
      git('push', '--quiet', 'origin', 'HEAD:main');
      const site = (await input.call('POST', `/orgs/${input.organizationId}/sites`, { title: 'Heavy', spaces: [input.spaceId] })).body;
      const published = (await input.call('POST', `/orgs/${input.organizationId}/sites/${site.id}/publish`)).body as unknown as { urls: { published: string } };
      const page = await fetch(`${published.urls.published.replace(/\/$/, '')}/code`);
      return `${page.status}, ${fmt((await page.arrayBuffer()).byteLength / 1e6, 1)} MB of HTML`;
    },
    'a push of a 400 MB page (400 KB on the wire)': async () => {
      ready();
      execFileSync('sh', ['-c', `head -c 400000000 /dev/zero | tr '\\0' 'a' > huge.md`], { cwd: clone });
      git('add', '-A');
      git('commit', '-qm', 'Huge');
      // Asynchronously: the bystander's requests go on from this process meanwhile.
      const pushed = await pushAsync(clone, ['HEAD:refs/for/main']);
      git('reset', '--quiet', '--hard', 'HEAD~1');
      return pushed.status === 0 ? 'landed' : `refused: ${/huge\.md: [^\n]*/.exec(pushed.stderr)?.[0] ?? pushed.stderr.trim().split('\n').pop()}`;
    },
    'a push of 1,000 ref commands': async () => {
      ready();
      writeFileSync(path.join(clone, 'README.md'), '# Many refs\n');
      git('add', '-A');
      git('commit', '-qm', 'Many');
      const refs = Array.from({ length: 1000 }, (_, index) => `HEAD:refs/heads/change-requests/${index + 900}-many`);
      const pushed = await pushAsync(clone, refs);
      rmSync(work, { recursive: true, force: true });
      return pushed.status === 0 ? 'landed' : `refused: ${/this push updates[^\n]*/.exec(pushed.stderr)?.[0] ?? 'by git'}`;
    },
  };
}

/** `git push origin <refspecs>` without blocking this process: its exit status and what it said. */
function pushAsync(clone: string, refspecs: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['push', 'origin', ...refspecs], { cwd: clone, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } }, (error, _stdout, stderr) =>
      resolve({ status: error ? 1 : 0, stderr }),
    );
  });
}
