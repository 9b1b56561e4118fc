import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startPostgresCluster, type PostgresCluster } from '../../scripts/postgresCluster.js';
import { openDatabase, type Database } from '../../storage/db.js';
import { findStorage } from '../../storage/storages.js';
import { createToken } from '../../storage/tokens.js';
import { createUser } from '../../storage/users.js';
import { until } from '../helpers/poll.js';
import { startService, type ServiceProcess } from '../helpers/processes.js';
import { reportingErrors } from '../helpers/suite.js';
import { testTemporalSettings } from '../helpers/temporal.js';
import { checkedBody } from '../helpers/upstream.js';

// Storage nodes over a PostgreSQL of this suite's own, crashed (`pg_ctl stop -m immediate`) while
// editors write through the router: the storage node loses its ownership with its session, every
// request answers 503 meanwhile, and once PostgreSQL is back the node takes its storage again and
// every write acknowledged before, during or after is there.
const test = suite('storage nodes while PostgreSQL crashes');
const folders: string[] = [];
let cluster: PostgresCluster;
let db: Database;
let token: string;
let a: ServiceProcess;
let c: ServiceProcess;
let crashedAt = 0;

const folder = (label: string) => {
  const made = mkdtempSync(path.join(tmpdir(), `quire-outage-${label}-`));
  folders.push(made);
  return made;
};

async function call(at: ServiceProcess, method: string, requestPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(at.url + requestPath, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(
      `${method} ${requestPath} at ${at.url} (exit ${at.child.exitCode} ${at.child.signalCode}, ${Date.now() - crashedAt} ms after the crash): ${error.message} (${String((error.cause as Error | undefined)?.message)}); its output:\n${at.stdout().slice(-3000)}\n${at.stderr().slice(-3000)}`,
    );
  });
  return { status: response.status, body: await checkedBody(method, requestPath, response) };
}

/** A request that got no answer (its connection failed): counted as status 0, which the test refuses. */
const unanswered = () => ({ status: 0, body: undefined });

/** When s1 was last claimed; undefined while the database can't be read. */
const claimedAt = () =>
  findStorage(db, 's1').then(
    (storage) => storage?.claimedAt ?? undefined,
    () => undefined,
  );

test.before(
  reportingErrors(async () => {
    cluster = await startPostgresCluster();
    await cluster.createDatabase('quire');
    const temporal = await testTemporalSettings();
    db = await openDatabase(cluster.url('quire'));
    token = (await createToken(db, (await createUser(db, { email: 'editor@example.com', emailVerified: true })).id)).token;
    const env = {
      QUIRE_DATABASE_URL: cluster.url('quire'),
      TEMPORAL_ADDRESS: temporal.address,
      QUIRE_TASK_QUEUE: temporal.taskQueue,
      QUIRE_WORKER: 'off',
      QUIRE_ACCESS_LOG: 'off',
      QUIRE_RATE_LIMIT: 'off',
    };
    [a, c] = await Promise.all([startService({ ...env, DATA_DIR: folder('s1'), QUIRE_STORAGE: 's1' }), startService({ ...env, DATA_DIR: folder('router'), QUIRE_STORAGE: 'none' })]);
    await until('A to own s1', async () => (await findStorage(db, 's1'))?.nodeUrl === a.url, 10_000);
  }),
);
test.after(async () => {
  await Promise.all([a, c].map((running) => running?.stop('SIGKILL')));
  await db?.close();
  await cluster?.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

test('a crash of PostgreSQL under writes: 503 meanwhile, the storage taken again once it is back, every acknowledged write kept', async () => {
  const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Outage' })).body.id;
  const space = (await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Written' })).body;
  const acknowledged = new Map<string, string[]>();
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
  let writing = true;
  const editors = Array.from({ length: 6 }, async (_, editor) => {
    let changeRequest: string | undefined;
    for (let round = 0; writing; round += 1) {
      if (changeRequest === undefined) {
        const opened = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Editor ${editor}` }).catch(unanswered);
        count(opened.status);
        if (opened.status === 201) acknowledged.set((changeRequest = opened.body.id as string), []);
        else await pause();
      } else {
        const title = `E${editor} R${round}`;
        const wrote = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content`, {
          changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }],
        }).catch(unanswered);
        count(wrote.status);
        if (wrote.status === 200) acknowledged.get(changeRequest)!.push(title);
        else await pause();
      }
    }
  });
  const writes = () => [...acknowledged.values()].reduce((sum, titles) => sum + titles.length, 0);
  try {
    await until('some writes to land', async () => writes() >= 30, 15_000);
    const claimedBefore = await claimedAt();

    crashedAt = Date.now();
    cluster.crash();
    await until('writers to meet the outage', async () => (statuses.get(503) ?? 0) >= 6, 15_000);
    await until('A to notice it lost s1', () => /storage s1: the ownership lock was lost/.test(a.stderr()), 15_000);
    cluster.start();
    await until(
      'A to take s1 again',
      async () => {
        const at = await claimedAt();
        return at !== undefined && at !== claimedBefore;
      },
      20_000,
      100,
    );
    const before = writes();
    await until('writes to land again', async () => writes() >= before + 20, 15_000);
  } finally {
    writing = false;
    await Promise.all(editors);
  }

  assert.ok(
    [...statuses.keys()].every((status) => [200, 201, 503].includes(status)),
    `only 200, 201 and 503 answered: ${JSON.stringify([...statuses])}`,
  );
  for (const [changeRequest, titles] of acknowledged) {
    const pages = await call(c, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content/pages`);
    assert.is(pages.status, 200, JSON.stringify(pages.body));
    const present = new Set((pages.body.pages as Array<{ title: string }>).map((page) => page.title));
    assert.equal(
      titles.filter((title) => !present.has(title)),
      [],
      `acknowledged writes lost in change request ${changeRequest}`,
    );
  }
});

test.run();
