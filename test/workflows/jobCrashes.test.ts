import { execFileSync } from 'node:child_process';
import { pdfExportStatus } from '../../storage/pdfExports.js';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { until } from '../helpers/poll.js';
import { startWorkerProcess, type ServiceProcess } from '../helpers/processes.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { testTemporalSettings } from '../helpers/temporal.js';

/** Translation runs and PDF exports whose worker is killed in the middle of the activity. */
const test = suite('translation and PDF jobs survive a killed worker');
let t: TestServer;
let env: Record<string, string>;
const workers: ServiceProcess[] = [];
let translator: Server;
/** While true, the translator takes requests and never answers: the activity is stuck mid-run. */
let holding = true;
const held: ServerResponse[] = [];
let translations = 0;

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

test.before(
  reportingErrors(async () => {
    translator = createServer(async (req, res) => {
      const body = await bodyOf(req);
      translations += 1;
      if (holding) return void held.push(res);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ translatedText: body.q.map((text: string) => `FR ${text}`) }));
    });
    await new Promise<void>((resolve) => translator.listen(0, '127.0.0.1', resolve));
    const temporal = await testTemporalSettings();
    t = await startTestServer({ temporal });
    env = {
      DATA_DIR: t.dataDir,
      TEMPORAL_ADDRESS: temporal.address,
      QUIRE_TASK_QUEUE: temporal.taskQueue,
      QUIRE_TRANSLATOR: 'libretranslate',
      QUIRE_LIBRETRANSLATE_URL: `http://127.0.0.1:${(translator.address() as AddressInfo).port}`,
    };
  }),
);
test.after(async () => {
  await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
  await t?.close();
  translator?.closeAllConnections();
  translator?.close();
});

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): Array<{ pid: number; command: string }> {
  return execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([, parent]) => Number(parent) === pid)
    .map(([child, , command]) => ({ pid: Number(child), command: command ?? '' }));
}

/** Kills the worker and the processes it started (Chromium), as a machine losing power would. */
function killWithChildren(worker: ServiceProcess) {
  const children = childrenOf(worker.child.pid!);
  worker.child.kill('SIGKILL');
  for (const child of children) {
    try {
      process.kill(child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function organization() {
  const admin = await t.user();
  const org = (await t.call('POST', '/v1/orgs', { token: admin.token, body: { title: 'Crashes' } })).body;
  const space = (await t.call('POST', `/v1/orgs/${org.id}/spaces`, { token: admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
  return { token: admin.token, orgId: org.id as string, spaceId: space.id as string };
}

test('a translation run whose worker dies mid-translation is finished by another worker, with one commit and one target space', async () => {
  const { token, orgId, spaceId } = await organization();
  workers.push(await startWorkerProcess(env));
  const created = await t.call('POST', `/v1/orgs/${orgId}/translations`, { token, body: { language: 'fr', source: { space: spaceId, language: 'en' } } });
  assert.is(created.status, 201);
  await until('the first worker to be translating', () => held.length > 0, 30_000);
  killWithChildren(workers.pop()!);
  for (const response of held.splice(0)) response.destroy();
  holding = false;
  const asked = translations;

  workers.push(await startWorkerProcess(env));
  const done = await until(
    'the run to complete on the second worker',
    async () => {
      const translation = (await t.call('GET', `/v1/orgs/${orgId}/translations/${created.body.id}`, { token })).body;
      return translation.stats.runs === 1 && translation.result ? translation : undefined;
    },
    60_000,
  );
  assert.ok(translations > asked, 'the second worker translated again');
  const messages = execFileSync('git', ['-C', spaceGitdir(t.dataDir, done.result.space), 'log', '--format=%s', 'main'], { encoding: 'utf8' })
    .trim()
    .split('\n');
  assert.is(messages.filter((message) => message.startsWith('Translate ')).length, 1, `one translation commit: ${messages.join(' | ')}`);
  const spaces = (await t.call('GET', `/v1/orgs/${orgId}/spaces`, { token })).body.items.filter((space: { title: string }) => space.title.endsWith('(fr)'));
  assert.is(spaces.length, 1, 'one target space');
  await workers.pop()!.stop('SIGKILL');
});

test('a PDF export whose worker dies while Chromium renders is rendered by another worker', async () => {
  const { token, spaceId } = await organization();
  const changeRequest = (await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token, body: { subject: 'Draft' } })).body;
  const worker = await startWorkerProcess(env);
  workers.push(worker);
  const { url } = (await t.call('GET', `/v1/spaces/${spaceId}/change-requests/${changeRequest.id}/pdf`, { token })).body;
  const exportId = new URL(url).pathname.split('/').pop()!;
  const chromium = () => childrenOf(worker.child.pid!).some((child) => /chrom/i.test(child.command));
  await until('the first worker to launch Chromium', chromium, 60_000, 5);
  killWithChildren(workers.pop()!);
  assert.is((await pdfExportStatus(t.server.db, spaceId, exportId))?.state, 'pending', 'killed before the PDF was stored');
  assert.is((await fetch(url)).status, 503, 'still being rendered');

  workers.push(await startWorkerProcess(env));
  const response = await until(
    'the PDF from the second worker',
    async () => {
      const answer = await fetch(url);
      return answer.status === 200 ? answer : undefined;
    },
    90_000,
    200,
  );
  const bytes = Buffer.from(await response.arrayBuffer());
  assert.is(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
});

test.run();
