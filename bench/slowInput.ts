// Issue 27's figure: pathological inputs of every kind posted at 1 MB (64 KB for comments, the most
// they take) while another user's GET /user is timed; its p99 must stay ≤ 50 ms. Runs the built
// server (dist/) as its own process.
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
    const response = await fetch(`${server.url}/v1${url}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
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
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const answers: string[] = [];
    for (const [name, make] of Object.entries(inputs)) {
      current = name;
      const page = await call('POST', `/spaces/${space.id}/change-requests/${changeRequest.id}/content`, { changes: [{ operation: 'insert_page', title: name, document: { markdown: make(megabyte) } }] });
      const comment = await call('POST', `/spaces/${space.id}/comments`, { body: { markdown: make(64 * 1024 - 64) } });
      answers.push(`${name}: page ${page.status} in ${fmt(page.ms, 0)} ms, comment ${comment.status} in ${fmt(comment.ms, 0)} ms`);
    }
    const conversation = await call('POST', `/orgs/${organizationId}/conversations`, { id: 'dots', parts: Array.from({ length: 10 }, () => ({ type: 'message', role: 'user', body: fill('a.', 95_000) })) });
    answers.push(`conversation of ten 95 KB 'a.a.a…' parts: ${conversation.status} in ${fmt(conversation.ms, 0)} ms`);
    posting = false;
    await probe;
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
