import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spaceGitdir } from '../../engine/spaceRepositories.js';
import { until } from '../helpers/poll.js';
import { runAdmin, startService, type ServiceProcess } from '../helpers/processes.js';
import { assertUpstreamResponse } from '../helpers/upstream.js';

const test = suite('the service as a process');
const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-process-'));
  dirs.push(dir);
  return dir;
};
const running: ServiceProcess[] = [];
test.after(async () => {
  // A failed assertion must not leave a service running (uvu would wait for it forever).
  await Promise.all(running.filter((service) => service.child.exitCode === null && service.child.signalCode === null).map((service) => service.stop('SIGKILL')));
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

async function get(url: string, token?: string) {
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = await response.json();
  if (response.ok) assertUpstreamResponse('GET', new URL(url).pathname, response.status, body);
  return { status: response.status, body };
}

/** The access-log line of the request (lines are written in batches, so it may take a moment). */
function logEntry(service: ServiceProcess, path: string) {
  return until(
    `the access-log line for ${path}`,
    () =>
      service
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.path === path),
    5000,
    50,
  );
}

test('bootstraps an empty DATA_DIR, serves, logs each request, and stops on SIGTERM within 5 s', async () => {
  const DATA_DIR = dataDir();
  const service = await startService({ DATA_DIR, QUIRE_BOOTSTRAP_TOKEN: 'bootstrap-secret-0123456789abcdef' });
  running.push(service);
  assert.is((await get(`${service.url}/v1/`)).status, 200);
  const orgs = await get(`${service.url}/v1/orgs`, 'bootstrap-secret-0123456789abcdef');
  assert.is(orgs.status, 200);
  assert.is(orgs.body.count, 1);
  assert.is(orgs.body.items[0].permissions.admin, true, 'the first user administers the first organization');

  // The getting-started template published as a site: its URL shows the site, with no other step.
  const send = async (method: string, route: string, body?: unknown) =>
    (
      await fetch(`${service.url}/v1${route}`, {
        method,
        headers: { authorization: 'Bearer bootstrap-secret-0123456789abcdef', 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    ).json();
  const organizationId = orgs.body.items[0].id as string;
  const space = await send('POST', `/orgs/${organizationId}/spaces`, { title: 'Guide', template: { id: 'getting-started' } });
  const site = await send('POST', `/orgs/${organizationId}/sites`, { title: 'Our docs', spaces: [space.id] });
  const published = await send('POST', `/orgs/${organizationId}/sites/${site.id}/publish`);
  const page = await fetch(published.urls.published);
  assert.is(page.status, 200);
  assert.match(await page.text(), '<h1>Introduction</h1>');

  const line = await logEntry(service, '/v1/orgs');
  assert.ok(line, 'an access-log line for the request');
  assert.is(line.status, 200);
  assert.type(line.requestId, 'string');
  assert.type(line.durationMs, 'number');

  // Exit code 0 is the graceful path (past its 4.5 s grace period the process exits with 1); the
  // "stopped" line gives the shutdown's own time, from the signal to the last step.
  const { code } = await service.stop('SIGTERM');
  assert.is(code, 0);
  const stopped = service
    .stdout()
    .split('\n')
    .filter((line) => line.includes('"message":"stopped"'))
    .map((line) => JSON.parse(line) as { ms: number });
  assert.is(stopped.length, 1, service.stdout());
  assert.ok(stopped[0]!.ms < 5000, `stopped in ${stopped[0]!.ms} ms`);

  const again = await startService({ DATA_DIR, QUIRE_BOOTSTRAP_TOKEN: 'another-token-0123456789abcdef' });
  running.push(again);
  assert.is((await get(`${again.url}/v1/orgs`, 'bootstrap-secret-0123456789abcdef')).body.count, 1, 'state survives a restart');
  assert.is((await get(`${again.url}/v1/orgs`, 'another-token-0123456789abcdef')).status, 401, 'bootstrap runs only on an empty instance');
  await again.stop();
});

test('a bootstrap token too short to be a password is refused at start-up', async () => {
  const failure = await startService({ DATA_DIR: dataDir(), QUIRE_BOOTSTRAP_TOKEN: 'change-me' }).then(
    () => assert.unreachable('the service started'),
    (error: Error) => error,
  );
  assert.match((failure as Error).message, /at least 24 characters/);
});

test('npm run admin -- token create prints only a token that works, with the server running', async () => {
  const DATA_DIR = dataDir();
  const service = await startService({ DATA_DIR });
  running.push(service);
  const created = await runAdmin(['token', 'create', '--email', 'operator@example.com'], { DATA_DIR });
  assert.is(created.code, 0, created.stderr);
  assert.match(created.stdout, /^qr_[A-Za-z0-9_-]{43}\n$/);
  const me = await get(`${service.url}/v1/user`, created.stdout.trim());
  assert.is(me.body.email, 'operator@example.com');

  const org = await runAdmin(['org', 'create', '--title', 'Operators', '--owner', 'operator@example.com'], { DATA_DIR });
  assert.is(org.code, 0, org.stderr);
  const orgs = await get(`${service.url}/v1/orgs`, created.stdout.trim());
  assert.equal(
    orgs.body.items.map((o: { id: string }) => o.id),
    [org.stdout.trim()],
  );
  const listed = await runAdmin(['user', 'list'], { DATA_DIR });
  assert.ok(listed.stdout.includes('operator@example.com'));

  const added = await runAdmin(['member', 'add', '--org', org.stdout.trim(), '--email', 'writer@example.com', '--role', 'edit'], { DATA_DIR });
  assert.is(added.code, 0, added.stderr);
  const noOrg = await runAdmin(['member', 'add', '--org', 'nope', '--email', 'writer@example.com'], { DATA_DIR });
  assert.is(noOrg.code, 2);
  assert.ok(noOrg.stderr.includes('no organization with id nope'));

  const wrong = await runAdmin(['token', 'create'], { DATA_DIR });
  assert.is(wrong.code, 2);
  assert.ok(wrong.stderr.includes('--email is required'));

  const user = await runAdmin(['user', 'create', '--email', 'reader@example.com', '--name', 'Rea Der'], { DATA_DIR });
  assert.is(user.code, 0, user.stderr);
  assert.ok((await runAdmin(['user', 'list'], { DATA_DIR })).stdout.includes(`${user.stdout.trim()}\treader@example.com\tRea Der`));
  // Refusals are usage errors (exit 2) that say what was refused, and change nothing.
  const refusals = await Promise.all([
    runAdmin(['user', 'create', '--email', 'reader@example.com'], { DATA_DIR }),
    runAdmin(['member', 'add', '--org', org.stdout.trim(), '--email', 'writer@example.com'], { DATA_DIR }),
    runAdmin(['token', 'revoke', '--id', 'no-such-token'], { DATA_DIR }),
    runAdmin(['token', 'list', '--email', 'nobody@example.com'], { DATA_DIR }),
  ]);
  assert.equal(
    refusals.map((refusal) => [refusal.code, refusal.stderr.split('\n')[0]]),
    [
      [2, 'admin: a user with email reader@example.com already exists'],
      [2, 'admin: writer@example.com is already a member'],
      [2, 'admin: no token with id no-such-token'],
      [2, 'admin: no user with email nobody@example.com'],
    ],
  );
  const members = await get(`${service.url}/v1/orgs/${org.stdout.trim()}/members`, created.stdout.trim());
  assert.equal(members.body.items.map((m: { user: { email: string }; role: string }) => [m.user.email, m.role]).sort(), [
    ['operator@example.com', 'admin'],
    ['writer@example.com', 'edit'],
  ]);
  await service.stop();
});

test('ready before its worker polls: a job asked for at once runs when the worker starts, and SIGTERM meanwhile stops cleanly', async () => {
  const DATA_DIR = dataDir();
  const token = 'bootstrap-secret-0123456789abcdef';
  const service = await startService({ DATA_DIR, QUIRE_BOOTSTRAP_TOKEN: token, QUIRE_SPACE_RETENTION: '100ms' });
  running.push(service);
  const send = async (method: string, route: string, body?: unknown) =>
    fetch(`${service.url}/v1${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const organizationId = (await get(`${service.url}/v1/orgs`, token)).body.items[0].id as string;
  const space = (await (await send('POST', `/orgs/${organizationId}/spaces`, { title: 'Soon gone' })).json()) as { id: string };
  assert.is((await send('DELETE', `/spaces/${space.id}`)).status, 205, 'the purge job is asked for right after the ready line');
  await until('the purge to run once the worker polls', () => !existsSync(spaceGitdir(DATA_DIR, space.id)), 15_000, 100);
  // The log is written in batches of 50 ms: the line may come a moment after the purge.
  await until('the worker-started line', () => service.stdout().includes('"message":"the worker started"'), 5000, 50);
  const messages = service
    .stdout()
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { message?: string }).message);
  assert.ok(messages.indexOf('Quire is ready') < messages.indexOf('the worker started'), 'the worker starts after the ready line');
  assert.is((await service.stop('SIGTERM')).code, 0);

  // Stopped on its ready line: before its worker starts (then it never does), or while it starts (then it is awaited and stopped).
  const again = await startService({ DATA_DIR });
  running.push(again);
  const { code } = await again.stop('SIGTERM');
  assert.is(code, 0, again.stderr());
  assert.not.match(again.stdout(), /could not start its worker/);
});

test.run();
