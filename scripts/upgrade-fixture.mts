// Makes the upgrade test's fixture (test/api/upgrade.test.ts): a data directory written by a
// release, through that release's own API. Run it from a checkout of the release (its
// node_modules installed), with this file's path and an empty output folder:
//   cd <checkout of tag stop-62> && npx tsx <this checkout>/scripts/upgrade-fixture.mts /tmp/fixture [postgres]
// then pack it: tar czf test/fixtures/upgrade/<release>[-postgres].tar.gz -C /tmp/fixture/data . and
// copy /tmp/fixture/manifest.json to test/fixtures/upgrade/<release>[-postgres].json. With
// `postgres`, the metadata goes to a throwaway PostgreSQL cluster (this checkout's
// scripts/postgresCluster.ts), dumped at the end as a backup dumps it (storage/backup.ts) to
// /tmp/fixture/quire.dump: copy it to test/fixtures/upgrade/<release>-postgres.dump.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dumpPostgres } from '../storage/backup.js';
import { startPostgresCluster } from './postgresCluster.js';

const out = process.argv[2];
const onPostgres = process.argv[3] === 'postgres';
if (!out) throw new Error('usage: npx tsx scripts/upgrade-fixture.mts <output folder> [postgres]');
const fromRelease = (file: string) => import(pathToFileURL(path.join(process.cwd(), file)).href);
const { startTestServer } = await fromRelease('test/helpers/server.ts');
const { organizationWithMembers } = await fromRelease('test/helpers/fixtures.ts');
const dataDir = path.join(out, 'data');
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const cluster = onPostgres ? await startPostgresCluster() : undefined;
if (cluster) await cluster.createDatabase('quire_fixture');
// A SQLite data directory unless asked otherwise, whatever the environment says.
const t = await startTestServer({ databaseUrl: cluster ? cluster.url('quire_fixture') : '' }, { dataDir });
const fx = await organizationWithMembers(t, 'Upgraded Docs');
const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Guide', template: { id: 'getting-started' } } })).body;
const pages: Array<{ id: string; path: string }> = (await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.admin.token })).body.pages;
const faq = pages.find((page) => page.path === 'faq')!;
const cr = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Answer more questions' } })).body;
const written = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
  token: fx.editor.token,
  body: { changes: [{ operation: 'update_page', page: faq.id, document: { markdown: '## Where do I start?\n\nWith the introduction.\n\n## Who answers?\n\nThe support team, within a day.\n' } }] },
});
if (written.status !== 200) throw new Error(JSON.stringify(written.body));
const comment = await t.call('POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, { token: fx.editor.token, body: { body: { markdown: 'Looks right to me.' } } });
if (comment.status >= 300) throw new Error('comment ' + comment.status + JSON.stringify(comment.body));
const site = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites`, { token: fx.admin.token, body: { title: 'Upgraded site', spaces: [space.id] } })).body;
const published = (await t.call('POST', `/v1/orgs/${fx.org.id}/sites/${site.id}/publish`, { token: fx.admin.token })).body;
writeFileSync(
  path.join(out, 'manifest.json'),
  JSON.stringify(
    {
      madeBy: '1a308fc (stop 62)',
      database: onPostgres ? 'postgres' : 'sqlite',
      migration: 27,
      organization: fx.org.id,
      adminToken: fx.admin.token,
      readerToken: fx.reader.token,
      editorToken: fx.editor.token,
      space: space.id,
      faqPage: faq.id,
      changeRequest: cr.id,
      changeRequestNumber: cr.number,
      comment: comment.body.id,
      site: site.id,
      sitePath: new URL(published.urls.published).pathname,
    },
    null,
    2,
  ),
);
await t.close({ keepData: true });
if (cluster) {
  await dumpPostgres(cluster.url('quire_fixture'), path.join(out, 'quire.dump'));
  await cluster.stop();
}
console.log('done');
