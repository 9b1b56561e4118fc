// A rolling upgrade by hand (docs/operations.md, Upgrades): a node of an older release serves a
// PostgreSQL database, a node of this checkout starts beside it over the same database and data
// directory (migrating it), and both go on reading and writing what the other wrote. Give it a
// checkout of the older release with its node_modules installed (the older node uses this
// checkout's Temporal CLI, which `npm test` builds):
//   git worktree add /tmp/stop-62 stop-62 && (cd /tmp/stop-62 && npm ci)
//   npx tsx scripts/rolling-upgrade.mts /tmp/stop-62
// It prints one line per check and exits 1 if any failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgresCluster } from './postgresCluster.js';
import { startTestServer } from '../test/helpers/server.js';

const release = process.argv[2];
if (!release) throw new Error('usage: npx tsx scripts/rolling-upgrade.mts <checkout of the older release>');

const cluster = await startPostgresCluster();
await cluster.createDatabase('rolling');
const url = cluster.url('rolling');
const dataDir = mkdtempSync(path.join(tmpdir(), 'quire-rolling-'));
// The older node: that release's test server, in a process of its own, run from its checkout.
const oldNode = path.join(dataDir, '..', `${path.basename(dataDir)}-old-node.mts`);
writeFileSync(
  oldNode,
  `import path from 'node:path';
import { pathToFileURL } from 'node:url';
const [dataDir, databaseUrl] = process.argv.slice(2);
const fromRelease = (file) => import(pathToFileURL(path.join(process.cwd(), file)).href);
const { startTestServer } = await fromRelease('test/helpers/server.ts');
const { organizationWithMembers } = await fromRelease('test/helpers/fixtures.ts');
const t = await startTestServer({ databaseUrl }, { dataDir });
const fx = await organizationWithMembers(t, 'Rolling Docs');
console.log('node: ' + JSON.stringify({ url: t.url, org: fx.org.id, admin: fx.admin.token, editor: fx.editor.token, reader: fx.reader.token }));
setInterval(() => undefined, 1 << 30);
`,
);
const temporalCache = process.env.QUIRE_TEMPORAL_CACHE_DIR ?? path.resolve('.cache', 'temporal');
const old = spawn('npx', ['tsx', oldNode, dataDir, url], {
  cwd: release,
  env: { ...process.env, QUIRE_TEMPORAL_CACHE_DIR: temporalCache },
  stdio: ['ignore', 'pipe', 'inherit'],
  detached: true,
});
const info = await new Promise<{ url: string; org: string; admin: string; editor: string; reader: string }>((resolve) => {
  let text = '';
  old.stdout.on('data', (chunk) => {
    text += chunk;
    const line = text.split('\n').find((l) => l.startsWith('node: '));
    if (line) resolve(JSON.parse(line.slice('node: '.length)));
  });
});
const call = async (base: string, method: string, p: string, token: string, body?: unknown) => {
  const response = await fetch(base + p, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  // A JSON answer's fields, read as the checks below expect them (an empty 204/205 body is {}).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as any };
};
const results: string[] = [];
const check = (what: string, ok: boolean, detail = '') => {
  const line = `${ok ? 'ok  ' : 'FAIL'} ${what}${detail ? ` (${detail})` : ''}`;
  results.push(line);
  console.log(line);
};
const O = info.url;
// Before the upgrade: the old node writes.
const space1 = await call(O, 'POST', `/v1/orgs/${info.org}/spaces`, info.admin, { title: 'Before', template: { id: 'getting-started' } });
check('old node: space before the upgrade', space1.status === 201, String(space1.status));
// The new node starts beside it and migrates.
const started = Date.now();
const t = await startTestServer({ databaseUrl: url }, { dataDir });
const version = await t.server.db.get<{ v: number }>('SELECT max(version) AS v FROM quire_schema');
check(`new node started and migrated to ${version?.v} in ${Date.now() - started} ms`, true);
const N = t.url;
// The old node, after its database was migrated under it.
const pagesOld = await call(O, 'GET', `/v1/spaces/${space1.body.id}/content/pages`, info.reader);
check('old node reads pages after the migration', pagesOld.status === 200 && pagesOld.body.pages.length === 3, String(pagesOld.status));
const space2 = await call(O, 'POST', `/v1/orgs/${info.org}/spaces`, info.admin, { title: 'During', template: { id: 'getting-started' } });
check('old node creates a space after the migration', space2.status === 201, String(space2.status));
const cr = await call(O, 'POST', `/v1/spaces/${space2.body.id}/change-requests`, info.editor, { subject: 'Old node change' });
check('old node opens a change request', cr.status === 201, String(cr.status));
const pages2 = (await call(O, 'GET', `/v1/spaces/${space2.body.id}/content/pages`, info.reader)).body.pages;
const faq = pages2.find((p: { path: string }) => p.path === 'faq');
const wrote = await call(O, 'POST', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}/content`, info.editor, {
  changes: [{ operation: 'update_page', page: faq.id, document: { markdown: '## Written by the old node\n\nDuring the rolling upgrade.\n' } }],
});
check('old node writes content', wrote.status === 200, String(wrote.status));
const comment = await call(O, 'POST', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}/comments`, info.editor, { body: { markdown: 'old node comment' } });
check('old node comments', comment.status < 300, String(comment.status));
// The new node sees it all.
const seenNew = await call(N, 'GET', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}/content/page/${faq.id}?format=markdown`, info.reader);
check('new node reads the old node’s change', seenNew.status === 200 && /old node/.test(seenNew.body.markdown ?? ''), String(seenNew.status));
const commentsNew = await call(N, 'GET', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}/comments`, info.reader);
check('new node lists the old node’s comment', commentsNew.body.items?.length === 1, JSON.stringify(commentsNew.body).slice(0, 100));
// The new node merges; the old node sees the merge.
const merged = await call(N, 'POST', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}/merge`, info.admin);
check('new node merges the old node’s change request', merged.body.result === 'merge', JSON.stringify(merged.body).slice(0, 100));
const mainOld = await call(O, 'GET', `/v1/spaces/${space2.body.id}/content/page/${faq.id}?format=markdown`, info.reader);
check('old node reads the merged page', /old node/.test(mainOld.body.markdown ?? ''), String(mainOld.status));
const crOld = await call(O, 'GET', `/v1/spaces/${space2.body.id}/change-requests/${cr.body.id}`, info.reader);
check('old node sees the change request merged', crOld.body.status === 'merged', crOld.body.status);
// New-only features written by the new node; the old node goes on.
const site = await call(N, 'POST', `/v1/orgs/${info.org}/sites`, info.admin, { title: 'Rolling site', spaces: [space2.body.id] });
check('new node creates a site', site.status === 201, String(site.status));
const audit = await call(N, 'GET', `/v1/orgs/${info.org}/audit-events`, info.admin);
check('new node audit log answers', audit.status === 200, `${audit.status} ${audit.body.items?.length} events`);
const sitesOld = await call(O, 'GET', `/v1/orgs/${info.org}/sites`, info.admin);
check('old node lists the new node’s site', sitesOld.status === 200 && sitesOld.body.items.some((s: { id: string }) => s.id === site.body.id), String(sitesOld.status));
const rename = await call(N, 'PATCH', `/v1/spaces/${space1.body.id}`, info.admin, { title: 'Renamed by new' });
check('new node renames a space', rename.status === 200, String(rename.status));
await new Promise((r) => setTimeout(r, 300));
const renamedOld = await call(O, 'GET', `/v1/spaces/${space1.body.id}`, info.reader);
check('old node sees the rename (its read cache heard the new node)', renamedOld.body.title === 'Renamed by new', renamedOld.body.title);
const delOld = await call(O, 'DELETE', `/v1/spaces/${space1.body.id}`, info.admin);
check('old node deletes a space', delOld.status < 300, String(delOld.status));
const goneNew = await call(N, 'GET', `/v1/spaces/${space1.body.id}`, info.reader);
check('new node sees it deleted', goneNew.status === 404, String(goneNew.status));
const members = await call(O, 'GET', `/v1/orgs/${info.org}/members`, info.admin);
check('old node lists members', members.status === 200, String(members.status));
process.kill(-old.pid!, 'SIGKILL');
await t.close();
await cluster.stop();
rmSync(oldNode, { force: true });
const failed = results.filter((line) => line.startsWith('FAIL')).length;
console.log(`${results.length - failed} of ${results.length} checks passed`);
process.exit(failed ? 1 : 0);
