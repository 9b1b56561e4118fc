import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { openDatabase, type Database } from '../../storage/db.js';
import { findSpace } from '../../storage/spaces.js';
import { findStorage } from '../../storage/storages.js';
import { createToken, revokeToken } from '../../storage/tokens.js';
import { createUser, findUserByEmail } from '../../storage/users.js';
import { setPassword } from '../../domain/accounts/index.js';
import { FormBrowser, signedInBrowser } from '../helpers/formBrowser.js';
import { git, ok } from '../helpers/gitClient.js';
import { until } from '../helpers/poll.js';
import { freshTestDatabase, testingOnPostgres } from '../helpers/postgres.js';
import { runAdmin, startService, startWorkerProcess, type ServiceProcess } from '../helpers/processes.js';
import { reportingErrors } from '../helpers/suite.js';
import { ownDevServer } from '../helpers/temporal.js';
import type { DevServer } from '../../workflows/runtime/devServer.js';
import { checkedBody } from '../helpers/upstream.js';

// An instance spread over storage nodes, each its own OS process over one PostgreSQL database:
// A keeps storage s1, B keeps s2 (each in a data folder of its own), C keeps none and only routes.
// Requests about a space reach the node that keeps it in one hop, whichever node they arrive at;
// a storage is owned by one node at a time, and a standby on the owner's volume takes it over
// only once the owner is dead; an owner killed under writes loses none it acknowledged.
const test = suite('storage nodes');
const folders: string[] = [];
const nodes: ServiceProcess[] = [];
let db: Database;
let databaseUrl: string;
let temporal: { address: string; taskQueue: string };
let devServer: DevServer;
let temporalState: string;
let token: string;
let a: ServiceProcess;
let b: ServiceProcess;
let c: ServiceProcess;
const dataDirs = { s1: '', s2: '' };

const folder = (label: string) => {
  const made = mkdtempSync(path.join(tmpdir(), `quire-node-${label}-`));
  folders.push(made);
  return made;
};

/** A node as `npm start` runs it; a storage node with its workers (its storage's jobs are its own), the router without. */
async function node(storage: string, dataDir: string): Promise<ServiceProcess> {
  const started = await startService({
    DATA_DIR: dataDir,
    QUIRE_DATABASE_URL: databaseUrl,
    QUIRE_STORAGE: storage,
    TEMPORAL_ADDRESS: temporal.address,
    QUIRE_TASK_QUEUE: temporal.taskQueue,
    QUIRE_WORKER: storage === 'none' ? 'off' : 'on',
    QUIRE_SPACE_RETENTION: '1s',
    QUIRE_ACCESS_LOG: 'off',
    QUIRE_RATE_LIMIT: 'off',
    // One address for the instance, as behind a load balancer: the published URLs are the same on every node.
    QUIRE_PUBLIC_URL: 'http://docs.quire.test',
  });
  nodes.push(started);
  return started;
}

const repositoriesIn = (dataDir: string) =>
  readdirSync(path.join(dataDir, 'spaces'))
    .filter((name) => name.endsWith('.git'))
    .map((name) => name.slice(0, -'.git'.length))
    .sort();

const servedBy = async (storage: string, url: string) => (await findStorage(db, storage))?.nodeUrl === url;

/** Calls a node as a client would, every answer checked against the upstream schema; a failed connection says how the node was. */
async function call(at: ServiceProcess, method: string, requestPath: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(at.url + requestPath, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((error: Error) => {
    throw new Error(
      `${method} ${requestPath} at ${at.url} (exit ${at.child.exitCode} ${at.child.signalCode}): ${error.message} (${String((error.cause as Error | undefined)?.message)}); its output:\n${at.stdout().slice(-3000)}\n${at.stderr().slice(-3000)}`,
      { cause: error },
    );
  });
  return { status: response.status, body: await checkedBody(method, requestPath, response) };
}

if (testingOnPostgres) {
  test.before(
    reportingErrors(async () => {
      databaseUrl = await freshTestDatabase('storage_nodes');
      temporalState = folder('temporal');
      devServer = await ownDevServer(temporalState);
      temporal = { address: devServer.address, taskQueue: 'storage-nodes' };
      db = await openDatabase(databaseUrl);
      const user = await createUser(db, { email: 'operator@example.com', emailVerified: true });
      token = (await createToken(db, user.id)).token;
      dataDirs.s1 = folder('s1');
      dataDirs.s2 = folder('s2');
      [a, b, c] = await Promise.all([node('s1', dataDirs.s1), node('s2', dataDirs.s2), node('none', folder('router'))]);
      await until('A and B to own their storages', async () => (await servedBy('s1', a.url)) && (await servedBy('s2', b.url)), 10_000);
    }),
  );
  test.after(async () => {
    await Promise.all(nodes.map((running) => running.stop('SIGKILL')));
    await devServer?.stop();
    await db?.close();
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });

  test('spaces made through the router land on both storages; any node serves any space, reads, writes, lists and git', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Spread' })).body.id;
    const spaces: Array<{ id: string; revision: string }> = [];
    for (let index = 0; index < 4; index += 1) {
      const created = await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: `Space ${index}`, template: { id: 'getting-started' } });
      assert.is(created.status, 201, JSON.stringify(created.body));
      spaces.push(created.body);
    }
    const storages = await Promise.all(spaces.map(async (space) => (await findSpace(db, space.id))!.storageId));
    assert.equal([...storages].sort(), ['s1', 's1', 's2', 's2'], 'placed where there was most room');
    spaces.forEach((space, index) => {
      const kept = storages[index]!;
      assert.ok(existsSync(spaceGitdir(kept === 's1' ? dataDirs.s1 : dataDirs.s2, space.id)), `space ${index} is in ${kept}'s folder`);
      assert.not.ok(existsSync(spaceGitdir(kept === 's1' ? dataDirs.s2 : dataDirs.s1, space.id)), 'and only there');
    });

    // The web app through the router: each space's page, and a form that writes (a change request's review), served by the space's node.
    await setPassword(db, (await findUserByEmail(db, 'operator@example.com'))!, 'correct horse battery staple');
    const browser = await signedInBrowser(c.url, 'operator@example.com', 'correct horse battery staple');
    for (const [index, space] of spaces.entries()) {
      const shown = await browser.get(`/app/s/${space.id}`);
      assert.is(shown.status, 200, `space ${index}'s page through the router: ${shown.html.slice(0, 300)}`);
      assert.match(shown.html, `Space ${index}`);
    }
    const reviewed = spaces[storages.indexOf('s2')]!;
    const changeRequest = (await call(c, 'POST', `/v1/spaces/${reviewed.id}/change-requests`, { subject: 'Reviewed in the app' })).body;
    const page = await browser.get(new URL(changeRequest.urls.app).pathname);
    assert.is(page.status, 200);
    const approved = await browser.post(`${new URL(changeRequest.urls.app).pathname}/review`, { csrf: FormBrowser.field(page.html, 'csrf'), status: 'approved' });
    assert.is(approved.status, 303, approved.html.slice(0, 300));
    assert.is((await call(c, 'GET', `/v1/spaces/${reviewed.id}/change-requests/${changeRequest.id}/reviews`)).body.items.length, 1);

    for (const [index, space] of spaces.entries()) {
      for (const at of [a, b, c]) assert.is((await call(at, 'GET', `/v1/spaces/${space.id}/content/pages`)).status, 200, `space ${index} read through ${at.url}`);
      const head = await fetch(`${c.url}/v1/spaces/${space.id}`, { method: 'HEAD', headers: { authorization: `Bearer ${token}` } });
      assert.is(head.status, 200, 'a HEAD through the router');
      assert.ok(Number(head.headers.get('content-length')) > 0, 'with the length its GET would have');
      const changeRequest = (await call(at(index), 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Routed' })).body;
      const wrote = await call(at(index + 1), 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/content`, {
        changes: [{ operation: 'insert_page', title: `Routed ${index}`, document: { markdown: '# Routed\n' } }],
      });
      assert.is(wrote.status, 200, JSON.stringify(wrote.body));
      const merged = await call(at(index + 2), 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}/merge`);
      assert.is(merged.body.result, 'merge', JSON.stringify(merged.body));
      space.revision = merged.body.revision;
    }
    const listed = (await call(c, 'GET', `/v1/orgs/${organization}/spaces`)).body.items as Array<{ id: string; revision: string }>;
    assert.equal(
      listed.map((space) => space.revision),
      spaces.map((space) => space.revision),
      'the router, with no repository, lists every revision',
    );

    const work = folder('clone');
    const clone = path.join(work, 'clone');
    await ok(work, 'clone', '--quiet', `${c.url.replace('://', `://writer:${token}@`)}/git/${spaces[1]!.id}.git`, clone);
    assert.is(await ok(clone, 'rev-parse', 'HEAD'), spaces[1]!.revision, 'cloned through the router');
    writeFileSync(path.join(clone, 'pushed.md'), '# Pushed\n');
    await ok(clone, 'add', '.');
    await ok(clone, 'commit', '--quiet', '-m', 'Pushed through the router');
    const pushed = await git(clone, 'push', 'origin', 'HEAD:main');
    assert.is(pushed.code, 0, pushed.stderr);
    assert.is((await call(a, 'GET', `/v1/spaces/${spaces[1]!.id}`)).body.revision, await ok(clone, 'rev-parse', 'HEAD'), 'the push landed in the space');

    // A published page's lookup reads the repository without naming the space in its path: a node
    // that doesn't keep it sends the read on.
    const onS2 = spaces.find((_, index) => storages[index] === 's2')!;
    const site = (await call(c, 'POST', `/v1/orgs/${organization}/sites`, { title: 'Spread site', spaces: [onS2.id], visibility: 'public' })).body;
    const published = (await call(c, 'POST', `/v1/orgs/${organization}/sites/${site.id}/publish`)).body.urls.published as string;
    for (const at of [a, b, c]) {
      const found = await call(at, 'GET', `/v1/urls/published?url=${encodeURIComponent(`${published.replace(/\/$/, '')}/quick-start`)}`);
      assert.is(found.status, 200, `${at.url}: ${JSON.stringify(found.body)}`);
      assert.is(found.body.space, onS2.id);
    }
  });

  test('a client can’t pass for a node: a forged routing mark is ignored, the request routed as any other', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Forged' })).body.id;
    const space = (await call(b, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'On s2' })).body;
    assert.is((await findSpace(db, space.id))!.storageId, 's2');
    for (const at of [a, c]) {
      const response = await fetch(`${at.url}/v1/spaces/${space.id}`, { headers: { authorization: `Bearer ${token}`, 'x-quire-routed': 'forged' } });
      const body = (await checkedBody('GET', `/v1/spaces/${space.id}`, response)) as { id: string };
      assert.is(response.status, 200, `${at.url}: ${JSON.stringify(body)} (a trusted mark would have made it a 421)`);
      assert.is(body.id, space.id);
    }
  });

  test('a token revoked is refused at once by every node, each of which had it cached', async () => {
    const user = await createUser(db, { email: 'revoked@example.com', emailVerified: true });
    const created = await createToken(db, user.id);
    const asUser = (at: ServiceProcess) => fetch(`${at.url}/v1/user`, { headers: { authorization: `Bearer ${created.token}` } }).then((response) => response.status);
    for (let round = 0; round < 3; round += 1) assert.equal(await Promise.all([a, b, c].map(asUser)), [200, 200, 200], 'known to every node');
    await db.transaction((tx) => revokeToken(tx, created.record.id));
    assert.equal(await Promise.all([a, b, c].map(asUser)), [401, 401, 401], 'refused by every node on the next request');
  });

  test('jobs on a space’s repository run on its storage’s node: a space deleted through the router is purged from its folder', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Purged' })).body.id;
    const made = await Promise.all([0, 1].map(async (index) => (await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: `Doomed ${index}` })).body.id as string));
    for (const spaceId of made) {
      const storage = (await findSpace(db, spaceId))!.storageId;
      const gitdir = spaceGitdir(storage === 's1' ? dataDirs.s1 : dataDirs.s2, spaceId);
      assert.ok(existsSync(gitdir));
      assert.is((await call(c, 'DELETE', `/v1/spaces/${spaceId}`)).status, 205);
      await until(`space ${spaceId} on ${storage} to be purged`, async () => !existsSync(gitdir) && (await findSpace(db, spaceId, { includeDeleted: true })) === undefined, 30_000, 100);
    }
  });

  test('a space moved from s1 to s2 under reads and writes through the router: writes answer 2xx or 503 meanwhile, reads never fail, every acknowledged write is on s2, fsck clean, the old copy removed', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Moved' })).body.id;
    const space = (await call(a, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Moving', template: { id: 'getting-started' } })).body;
    assert.is((await findSpace(db, space.id))!.storageId, 's1');
    const changeRequest = (await call(c, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Written during the move' })).body.id as string;

    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    const failedReads: number[] = [];
    const unexpected: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, writer) => {
      for (let round = 0; writing; round += 1) {
        const title = `W${writer} R${round}`;
        const wrote = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content`, {
          changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }],
        });
        statuses.set(wrote.status, (statuses.get(wrote.status) ?? 0) + 1);
        if (wrote.status !== 200 && wrote.status !== 503) unexpected.push(`${wrote.status} ${JSON.stringify(wrote.body)}`);
        if (wrote.status === 200) acknowledged.push(title);
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const readers = [a, b].map(async (reader) => {
      while (writing) {
        const read = await call(reader, 'GET', `/v1/spaces/${space.id}/content/pages`);
        if (read.status !== 200) failedReads.push(read.status);
      }
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    const moved = await runAdmin(['space', 'move', space.id, '--to', 's2', '--release-after', '1s'], {
      DATA_DIR: folder('admin'),
      QUIRE_DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      QUIRE_TASK_QUEUE: temporal.taskQueue,
    });
    const tookMs = Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 500));
    writing = false;
    await Promise.all([...writers, ...readers]);
    assert.is(moved.code, 0, moved.stderr);
    assert.match(moved.stdout, `space ${space.id} moved from storage s1 to s2`);
    console.log(`    moved in ${tookMs} ms (the admin command, Temporal included); writes answered ${JSON.stringify(Object.fromEntries(statuses))}`);

    assert.is((await findSpace(db, space.id))!.storageId, 's2');
    assert.ok(existsSync(spaceGitdir(dataDirs.s2, space.id)), 'the repository is in s2’s folder');
    assert.not.ok(existsSync(spaceGitdir(dataDirs.s1, space.id)), 'and no longer opens in s1’s');
    assert.equal(failedReads, [], 'reads answered throughout');
    assert.equal(unexpected, [], 'writes answered 200, or 503 while the space was frozen');
    assert.ok((statuses.get(200) ?? 0) > 0, 'writes landed');

    const pages = await call(c, 'GET', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content/pages`);
    const present = new Set((pages.body.pages as Array<{ title: string }>).map((page) => page.title));
    assert.equal(
      acknowledged.filter((title) => !present.has(title)),
      [],
      'every acknowledged write is on s2',
    );
    execFileSync('git', ['-C', spaceGitdir(dataDirs.s2, space.id), 'fsck', '--full', '--no-dangling'], { stdio: 'pipe' });
    for (const [index, writer] of [a, b, c].entries()) {
      const wrote = await call(writer, 'POST', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content`, {
        changes: [{ operation: 'insert_page', title: `After ${index}`, document: { markdown: '# After\n' } }],
      });
      assert.is(wrote.status, 200, `a write after the move through ${writer.url}: ${JSON.stringify(wrote.body)}`);
    }
    await until('s1 to remove its old copy', () => !existsSync(`${spaceGitdir(dataDirs.s1, space.id)}.moved`), 15_000, 100);
  });

  test('a standby on the owner’s volume can’t take the storage while the owner lives, stopped or not, and takes it once the owner is dead', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Failover' })).body.id;
    const space = (await call(a, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'On s1' })).body;
    assert.is((await findSpace(db, space.id))!.storageId, 's1');
    const standby = await node('s1', dataDirs.s1);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.ok(await servedBy('s1', a.url), 'A still owns s1: the standby waits');
    assert.match(standby.stdout(), /storage s1 is owned by another node: waiting to take it over/);
    a.child.kill('SIGSTOP');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    assert.ok(await servedBy('s1', a.url), 'A, stopped, still holds its session: the standby can’t take s1');
    assert.not.match(standby.stdout(), /storage s1 is served by this node/);

    const killed = Date.now();
    a.child.kill('SIGKILL');
    await until('the standby to take s1', () => servedBy('s1', standby.url), 10_000, 10);
    const tookMs = Date.now() - killed;
    const served = await until(
      'the space through the router',
      async () => {
        const answer = await call(c, 'GET', `/v1/spaces/${space.id}`);
        return answer.status === 200 ? answer : undefined;
      },
      10_000,
    );
    console.log(`    standby took s1 ${tookMs} ms after the owner was killed; served through the router ${Date.now() - killed} ms after`);
    assert.is(served.body.id, space.id);
    const changeRequest = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'After the failover' });
    assert.is(changeRequest.status, 201, JSON.stringify(changeRequest.body));
    a = standby;
  });
  test('SIGKILL of a storage node under 50 editors writing through the router, ten times, then of the router twice: every acknowledged write kept, fsck clean, nothing orphaned, search caught up', async () => {
    const before = { s1: repositoriesIn(dataDirs.s1), s2: repositoriesIn(dataDirs.s2) };
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Killed' })).body.id;
    const spaces: Array<{ id: string; storage: string }> = [];
    for (let index = 0; index < 4; index += 1) {
      const made = await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: `Edited ${index}` });
      assert.is(made.status, 201, JSON.stringify(made.body));
      spaces.push({ id: made.body.id, storage: (await findSpace(db, made.body.id))!.storageId });
    }
    assert.equal(new Set(spaces.map((space) => space.storage)), new Set(['s1', 's2']));

    // Each editor opens a change request of its own and adds pages to it, one write at a time.
    const acknowledged = new Map<string, { spaceId: string; titles: string[] }>();
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
    // While the router is down the editors' connections fail (status 0): a write cut off there may
    // have landed, but it wasn't acknowledged. A connection that fails while the router is up (it
    // neither was down nor went down during the request) is a failure of its own (status -1).
    let routerDown = false;
    let routerKills = 0;
    const send = (method: string, requestPath: string, body?: unknown) => {
      const downAtStart = routerDown;
      const killsAtStart = routerKills;
      return call(c, method, requestPath, body).catch(() => ({ status: downAtStart || routerDown || routerKills > killsAtStart ? 0 : -1, body: undefined as any }));
    };
    let writing = true;
    const editors = Array.from({ length: 50 }, async (_, editor) => {
      const space = spaces[editor % spaces.length]!;
      let changeRequest: string | undefined;
      for (let round = 0; writing; round += 1) {
        if (changeRequest === undefined) {
          const opened = await send('POST', `/v1/spaces/${space.id}/change-requests`, { subject: `Editor ${editor}` });
          count(opened.status);
          if (opened.status === 201) acknowledged.set((changeRequest = opened.body.id as string), { spaceId: space.id, titles: [] });
          else await pause();
          continue;
        }
        const title = `E${editor} R${round}`;
        const wrote = await send('POST', `/v1/spaces/${space.id}/change-requests/${changeRequest}/content`, { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }] });
        count(wrote.status);
        if (wrote.status === 200) acknowledged.get(changeRequest)!.titles.push(title);
        else await pause();
      }
    });

    for (let round = 0; round < 10; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
      await a.stop('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      a = await node('s1', dataDirs.s1);
      await until('A to own s1 again', () => servedBy('s1', a.url), 10_000);
    }
    for (let round = 0; round < 2; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 700));
      routerDown = true;
      routerKills += 1;
      await c.stop('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 200));
      c = await node('none', folder('router'));
      routerDown = false;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    writing = false;
    await Promise.all(editors);

    const refused = [...statuses].filter(([status]) => status !== 200 && status !== 201);
    assert.ok(
      refused.every(([status]) => status === 503 || status === 0),
      `only 503 while A was down, no answer only while C was: ${JSON.stringify([...statuses])}`,
    );
    assert.ok((statuses.get(0) ?? 0) > 0, `the router's kills cut connections off: ${JSON.stringify([...statuses])}`);
    const writes = [...acknowledged.values()].reduce((sum, entry) => sum + entry.titles.length, 0);
    assert.ok(writes > 100, `writes landed: ${writes}`);
    console.log(`    ${writes} page writes and ${acknowledged.size} change requests acknowledged; answers ${JSON.stringify(Object.fromEntries(statuses))}`);

    for (const [changeRequest, { spaceId, titles }] of acknowledged) {
      const pages = await call(c, 'GET', `/v1/spaces/${spaceId}/change-requests/${changeRequest}/content/pages`);
      assert.is(pages.status, 200, JSON.stringify(pages.body));
      const present = new Set((pages.body.pages as Array<{ title: string }>).map((page) => page.title));
      assert.equal(
        titles.filter((title) => !present.has(title)),
        [],
        `acknowledged writes lost in change request ${changeRequest}`,
      );
    }
    for (const space of spaces) execFileSync('git', ['-C', spaceGitdir(space.storage === 's1' ? dataDirs.s1 : dataDirs.s2, space.id), 'fsck', '--full', '--no-dangling'], { stdio: 'pipe' });

    // A merge answered, then its node killed at once (before its search refresh, 50 ms later): the
    // node that takes the storage again brings the index up to the branch, and search through the
    // router finds the merged page.
    const onS1 = [...acknowledged].find(([, entry]) => spaces.find((space) => space.id === entry.spaceId)!.storage === 's1')!;
    const merged = await call(c, 'POST', `/v1/spaces/${onS1[1].spaceId}/change-requests/${onS1[0]}/merge`);
    assert.is(merged.body.result, 'merge', JSON.stringify(merged.body));
    await a.stop('SIGKILL');
    a = await node('s1', dataDirs.s1);
    const title = onS1[1].titles.at(-1)!;
    await until(
      'search through the router to find the merged page',
      async () => {
        const found = await call(c, 'GET', `/v1/orgs/${organization}/search?query=${encodeURIComponent(title)}`);
        return found.status === 200 && (found.body.items as Array<{ pages: Array<{ title: string }> }>).some((item) => item.pages.some((page) => page.title === title));
      },
      15_000,
      100,
    );

    for (const storage of ['s1', 's2'] as const) {
      const made = repositoriesIn(dataDirs[storage]).filter((id) => !before[storage].includes(id));
      const rows = spaces
        .filter((space) => space.storage === storage)
        .map((space) => space.id)
        .sort();
      assert.equal(made, rows, `storage ${storage}: one repository per space made, no more`);
    }
  });

  test('a separate worker killed mid-job, then Temporal itself, under writes through the router: writes go on, what needs a job answers 503 and changes nothing, and every job resumes', async () => {
    const organization = (await call(c, 'POST', '/v1/orgs', { title: 'Jobs' })).body.id;
    const space = (await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Written' })).body;
    const doomed = (await call(c, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Doomed' })).body;
    const doomedStorage = (await findSpace(db, doomed.id))!.storageId as 's1' | 's2';
    assert.ok(existsSync(spaceGitdir(dataDirs[doomedStorage], doomed.id)));
    const workerEnv = { DATA_DIR: folder('worker'), QUIRE_DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporal.address, QUIRE_TASK_QUEUE: temporal.taskQueue };
    let worker = await startWorkerProcess(workerEnv);
    nodes.push(worker);

    // Ten editors add pages through the router the whole time; a write needs no job.
    const opened = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Under outages' });
    assert.is(opened.status, 201);
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let writing = true;
    // A write whose connection fails ends its editor and is reported once the editors are awaited (never as an unhandled rejection meanwhile).
    const editorFailures: Error[] = [];
    const editors = Array.from({ length: 10 }, async (_, editor) => {
      for (let round = 0; writing; round += 1) {
        const title = `W${editor} R${round}`;
        const wrote = await call(c, 'POST', `/v1/spaces/${space.id}/change-requests/${opened.body.id}/content`, {
          changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }],
        }).catch((error: Error) => {
          editorFailures.push(error);
          return undefined;
        });
        if (!wrote) return;
        statuses.set(wrote.status, (statuses.get(wrote.status) ?? 0) + 1);
        if (wrote.status === 200) acknowledged.push(title);
      }
    });
    const conversation = (id: string) => ({
      id,
      subject: `Custom domain ${id}`,
      parts: [{ type: 'message', role: 'user', body: `How do I point docs.example.com (${id}) at our published site? The CNAME record is set.` }],
    });
    const post = async (ids: string[]) => {
      const posted = await call(c, 'POST', `/v1/orgs/${organization}/conversations`, ids.map(conversation));
      assert.is(posted.status, 204, JSON.stringify(posted.body));
    };
    const posted: string[] = [];
    const postBatch = async (label: string) => {
      const ids = Array.from({ length: 10 }, (_, i) => `${label}-${i}`);
      await post(ids);
      posted.push(...ids);
    };

    // The separate worker is killed while the organization's conversation job runs, and started again.
    await postBatch('before');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await worker.stop('SIGKILL');
    await postBatch('worker-down');
    worker = await startWorkerProcess(workerEnv);
    nodes.push(worker);

    // Temporal is killed: writes go on, posts are stored, a delete answers 503 and changes nothing.
    process.kill(devServer.pid, 'SIGKILL');
    const jobsStatus = async () => (await call(c, 'GET', '/v1/')).body.jobs.status;
    await until('the router to tell the job service is down', async () => (await jobsStatus()) === 'down', 15_000);
    await postBatch('temporal-down');
    const refused = await call(c, 'DELETE', `/v1/spaces/${doomed.id}`);
    assert.is(refused.status, 503, JSON.stringify(refused.body));
    assert.is((await call(c, 'GET', `/v1/spaces/${doomed.id}`)).status, 200, 'a delete that could not start its job changed nothing');
    const writesWhileDown = acknowledged.length;
    await until('writes to land while Temporal is down', async () => acknowledged.length > writesWhileDown + 10, 10_000);

    devServer = await ownDevServer(temporalState, Number(temporal.address.split(':').pop()));
    await until('the router to tell the job service is up', async () => (await jobsStatus()) === 'up', 15_000);
    // A post after the outage starts the organization's job, which processes everything pending.
    await postBatch('after');
    // The router's "up" is its own client's view: the node that keeps the space reconnects on its
    // own gRPC backoff, and until then refuses the delete as before, changing nothing.
    const deleted = await until(
      'the node that keeps the space to take the delete',
      async () => {
        const answer = await call(c, 'DELETE', `/v1/spaces/${doomed.id}`);
        if (answer.status !== 503) return answer;
        assert.match(answer.body.error.message, /the job service \(Temporal at [^)]*\) is unavailable .*Nothing was changed/);
        return undefined;
      },
      30_000,
      250,
    );
    assert.is(deleted.status, 205, JSON.stringify(deleted.body));
    writing = false;
    await Promise.all(editors);

    assert.equal(
      editorFailures.map((error) => error.message),
      [],
      'every write got an answer',
    );
    assert.equal([...statuses.keys()], [200], `every write answered 200: ${JSON.stringify([...statuses])}`);
    const pages = await call(c, 'GET', `/v1/spaces/${space.id}/change-requests/${opened.body.id}/content/pages`);
    const present = new Set((pages.body.pages as Array<{ title: string }>).map((page) => page.title));
    assert.equal(
      acknowledged.filter((title) => !present.has(title)),
      [],
      'acknowledged writes lost',
    );
    const storage = (await findSpace(db, space.id))!.storageId as 's1' | 's2';
    execFileSync('git', ['-C', spaceGitdir(dataDirs[storage], space.id), 'fsck', '--full', '--no-dangling'], { stdio: 'pipe' });
    await until(
      'every conversation posted to be processed, those of the outages included',
      async () => {
        const listed = (await call(c, 'GET', `/v1/orgs/${organization}/conversations?limit=1000`)).body.items as Array<{ id: string; processedAt?: string }>;
        return posted.every((id) => listed.some((item) => item.id === id && item.processedAt));
      },
      60_000,
    );
    await until('the deleted space to be purged from its storage', async () => !existsSync(spaceGitdir(dataDirs[doomedStorage], doomed.id)), 30_000);
    console.log(`    ${acknowledged.length} page writes acknowledged (${acknowledged.length - writesWhileDown} after Temporal went down); ${posted.length} conversations processed`);
  });
} else {
  test('QUIRE_STORAGE needs PostgreSQL: a node started with it over SQLite refuses to start, saying so', async () => {
    const refused = await startService({ DATA_DIR: folder('sqlite'), QUIRE_STORAGE: 's1', QUIRE_WORKER: 'off', QUIRE_DATABASE_URL: '' }).then(
      async (started) => {
        await started.stop('SIGKILL');
        return 'it started';
      },
      (error: Error) => error.message,
    );
    assert.match(refused, /QUIRE_STORAGE needs QUIRE_DATABASE_URL: storage nodes share one PostgreSQL database/);
  });
  test.after(() => {
    for (const made of folders) rmSync(made, { recursive: true, force: true });
  });
}

/** The nodes in turn, so that each step of a write arrives at another one. */
function at(index: number): ServiceProcess {
  return [a, b, c][index % 3]!;
}

test.run();
