import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configurePageLimit } from '../../api/sites/pages/publishedPage.js';
import { configureWorkerPool, workerTaskLimitMs } from '../../engine/index.js';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { ok } from '../helpers/gitClient.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { reportingErrors } from '../helpers/suite.js';

/**
 * A published page is rendered from what writers wrote: CPU work on user input, so it runs in the
 * worker pool under its time limit, highlights code only up to a budget per page (a total), and
 * past a size shows a short page linking its markdown instead. (issue 50: a 4 MB page of 200
 * code blocks rendered on the main thread in 11.6 s, as 26 MB of HTML.)
 */
const test = suite('heavy published pages: rendered in the pool, highlighting within a budget, size capped');
let t: TestServer;
let fx: OrganizationFixture;
let site: { urls: { published: string } };

/** 200 JavaScript blocks just under the old per-block limit of 20,000 characters: 4 MB of code. */
const block = (index: number) => {
  const lines = Array.from({ length: 400 }, (_, line) => `const value${index}_${line} = compute("${line}", ${line} * 2); // step ${line}`);
  return `\`\`\`javascript\n${lines.join('\n').slice(0, 19_990)}\n\`\`\``;
};
const codePage = Array.from({ length: 200 }, (_, index) => `## Part ${index}\n\n${block(index)}`).join('\n\n');
/** A page of plain paragraphs, about 600 KB. */
const longPage = Array.from({ length: 6_000 }, (_, index) => `Paragraph ${index} of a long page, written plainly with a few words more.`).join('\n\n');

const work = mkdtempSync(path.join(tmpdir(), 'quire-heavy-pages-'));
const defaultLimit = workerTaskLimitMs();

// Pushed with git: a page over the API's 1,000,000 characters comes that way.
test.before(
  reportingErrors(async () => {
    // What this suite checks is the highlighting budget and the size cap, not the pool's time limit
    // (test/api/slowInput.test.ts does): a busy machine may take more than 10 s to check or render 4 MB.
    configureWorkerPool({ taskLimitMs: 120_000 });
    t = await startTestServer();
    fx = await organizationWithMembers(t);
    const maker = siteMaker(() => ({ t, fx }));
    const space = await maker.space('Heavy');
    const clone = path.join(work, 'clone');
    await ok(work, 'clone', '--quiet', `${t.url.replace('://', `://writer:${fx.admin.token}@`)}/git/${space.id}.git`, clone);
    writeFileSync(path.join(clone, 'code.md'), `# Code\n\n${codePage}\n`);
    writeFileSync(path.join(clone, 'long.md'), `# Long\n\n${longPage}\n`);
    const summary = readFileSync(path.join(clone, 'SUMMARY.md'), 'utf8');
    writeFileSync(path.join(clone, 'SUMMARY.md'), `${summary.trimEnd()}\n* [Code](code.md)\n* [Long](long.md)\n`);
    await ok(clone, 'add', '-A');
    await ok(clone, 'commit', '-qm', 'Heavy pages');
    await ok(clone, 'push', '--quiet', 'origin', 'HEAD:main');
    site = await maker.publishedSite('Heavy docs', [space.id]);
  }),
);
test.after(async () => {
  configurePageLimit(8 * 1024 * 1024);
  configureWorkerPool({ taskLimitMs: defaultLimit });
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

const renders = async () => Number(/^quire_worker_pool_task_runs_total\{task="renderPublishedPage"\} (\d+)$/m.exec(await (await fetch(`${t.url}/metrics`)).text())?.[1] ?? 0);

test('4 MB of code: rendered in the worker pool, the first 100,000 characters highlighted, the rest plain', async () => {
  const before = await renders();
  const page = await fetch(`${site.urls.published.replace(/\/$/, '')}/code`);
  assert.is(page.status, 200);
  const html = await page.text();
  assert.is(await renders(), before + 1, 'rendered by a task of the pool');
  const blocks = html.split('<pre').slice(1);
  assert.is(blocks.length, 200, 'every block is on the page');
  const highlighted = blocks.filter((pre) => pre.slice(0, pre.indexOf('</pre>')).includes('class="hljs-'));
  assert.is(highlighted.length, 5, 'five blocks of 19,990 characters fit the budget');
  assert.ok(
    blocks.slice(5).every((pre) => !pre.slice(0, pre.indexOf('</pre>')).includes('hljs-')),
    'the blocks past it are plain',
  );
  assert.ok(html.length < 1.5 * codePage.length, `${html.length} characters of HTML for ${codePage.length} of markdown`);
  assert.ok(html.includes('const value199_1 = compute(&#x22;1&#x22;, 1 * 2);') || html.includes('const value199_1 = compute("1", 1 * 2);'), 'the last block is there, as text');
});

test('a page whose HTML passes the size limit shows its frame and a link to its markdown', async () => {
  configurePageLimit(200_000);
  try {
    const page = await fetch(`${site.urls.published.replace(/\/$/, '')}/long`);
    assert.is(page.status, 200);
    const html = await page.text();
    assert.match(html, /This page is too large to show here\. <a href="[^"]*\/long\.md">Read it as markdown<\/a>\./);
    assert.not.match(html, /Paragraph 5999/);
    const markdown = await fetch(`${site.urls.published.replace(/\/$/, '')}/long.md`);
    assert.is(markdown.status, 200);
    assert.match(await markdown.text(), /Paragraph 5999 of a long page/);
  } finally {
    configurePageLimit(8 * 1024 * 1024);
  }
});

test.run();
