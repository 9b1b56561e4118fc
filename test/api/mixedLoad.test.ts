import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

// `npm run bench soak`'s mix, small enough for every CI run: its first run found a lock cycle that
// stopped every write of an SQLite server for good (stop 42), which no other test had met.
const test = suite('mixed load: eight clients reading, searching, commenting, posting and merging at once');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup), { worker: true });

const seconds = Number(process.env.QUIRE_TEST_MIXED_LOAD_SECONDS ?? 30);
const clients = 8;
/**
 * A request not answered by then counts as hung: above the longest a request may wait, bounded,
 * before it is refused (20 s for a repository's lock, then 20 s for the database's writer).
 */
const hungAfterMs = 60_000;

test(`${clients} clients for ${seconds} s: every request answered, none failed, every acknowledged write kept`, async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Mixed load', template: { id: 'getting-started' } } })).body;
  const pages = ((await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ id: string }>).map((page) => page.id);
  const failures: string[] = [];
  const done = new Map<string, number>();
  const comments: string[] = [];
  const merged: string[] = [];
  let edits = 0;

  const expect = async (label: string, call: Promise<{ status: number; body: unknown }>, status = 200) => {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer in ${hungAfterMs / 1000} s`)), hungAfterMs)));
    try {
      const response = await Promise.race([call, hung]);
      if (response.status !== status) throw new Error(`answered ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`);
      return response.body as Record<string, unknown> & { id: string };
    } catch (error) {
      throw new Error(`${label}: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  };
  const operations: Record<string, () => Promise<unknown>> = {
    read: () => expect('read', t.call('GET', `/v1/spaces/${space.id}/content/page/${pages[Math.floor(Math.random() * pages.length)]}?format=document`, { token: fx.reader.token })),
    search: () => expect('search', t.call('GET', `/v1/orgs/${fx.org.id}/search?query=${['install', 'configure', 'guide', 'page'][Math.floor(Math.random() * 4)]}`, { token: fx.reader.token })),
    comment: async () => {
      const text = `A remark at ${Date.now()} ${Math.random()}`;
      await expect('comment', t.call('POST', `/v1/spaces/${space.id}/comments`, { token: fx.editor.token, body: { body: { markdown: `${text}, see [the guide](https://example.com).` } } }));
      comments.push(text);
    },
    conversation: () =>
      expect(
        'conversation',
        t.call('POST', `/v1/orgs/${fx.org.id}/conversations`, {
          token: fx.admin.token,
          body: { id: `load-${Math.random()}`, parts: [{ type: 'message', role: 'user', body: 'How do I export my space as a PDF?' }] },
        }),
        204,
      ),
    'edit and merge': async () => {
      edits += 1;
      const marker = `Edit ${edits} under load ${Math.random()}`;
      const changeRequest = await expect('open a change request', t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: marker } }), 201);
      const base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
      await expect('edit it', t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'insert_page', title: marker, document: { markdown: `${marker}.\n` } }] } }));
      await expect('merge it', t.call('POST', `${base}/merge`, { token: fx.admin.token }));
      merged.push(marker);
    },
  };
  const weights: Array<[string, number]> = [
    ['read', 45],
    ['search', 15],
    ['comment', 15],
    ['conversation', 10],
    ['edit and merge', 15],
  ];
  const pick = () => {
    let roll = Math.random() * 100;
    for (const [name, weight] of weights) if ((roll -= weight) < 0) return name;
    return 'read';
  };

  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < until) {
        const name = pick();
        try {
          await operations[name]!();
          done.set(name, (done.get(name) ?? 0) + 1);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    }),
  );

  assert.equal(failures.slice(0, 5), [], `${failures.length} operations failed`);
  for (const [name] of weights) assert.ok((done.get(name) ?? 0) >= 3, `${name} made progress: ${JSON.stringify(Object.fromEntries(done))}`);

  const listed = new Set<string>();
  let cursor = '';
  for (;;) {
    const page = (await t.call('GET', `/v1/spaces/${space.id}/comments?limit=1000${cursor}`, { token: fx.reader.token })).body;
    for (const comment of page.items as Array<{ body: { markdown?: string } }>) listed.add(JSON.stringify(comment.body));
    if (!page.next) break;
    cursor = `&page=${encodeURIComponent(page.next.page)}`;
  }
  const listedText = [...listed].join('\n');
  assert.equal(
    comments.filter((text) => !listedText.includes(text)),
    [],
    `every acknowledged comment is listed (${comments.length})`,
  );
  const titles = ((await t.call('GET', `/v1/spaces/${space.id}/content/pages`, { token: fx.reader.token })).body.pages as Array<{ title: string }>).map((page) => page.title);
  assert.equal(
    merged.filter((marker) => !titles.includes(marker)),
    [],
    `every merged page is in the space (${merged.length})`,
  );
});

test.run();
