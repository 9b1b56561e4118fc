import { pdfExportStatus } from '../../storage/pdfExports.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';

const test = suite('change request PDF export');
let t: TestServer;
let fx: OrganizationFixture;
let images: Server;
let imageHits = 0;
let remoteImage: string;

test.before(
  reportingErrors(async () => {
    images = createServer((_req, res) => {
      imageHits += 1;
      res.writeHead(200, { 'content-type': 'image/png' }).end('not really a png');
    });
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    remoteImage = `http://127.0.0.1:${(images.address() as AddressInfo).port}/tracker.png`;
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  images?.closeAllConnections();
  images?.close();
});

interface Page {
  id: string;
  title: string;
  pages: Page[];
}
const flat = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flat(page.pages ?? [])]);

/** The PDF's text page by page and its outline's titles, read with pdf.js as a reader would. */
async function readPdf(bytes: Uint8Array) {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: bytes, isEvalSupported: false }).promise;
  const pages: string[] = [];
  /** Per page, its links to a place in the PDF itself. */
  const innerLinks: number[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
    innerLinks.push((await page.getAnnotations()).filter((annotation: { subtype?: string; dest?: unknown }) => annotation.subtype === 'Link' && annotation.dest).length);
  }
  const outline = ((await document.getOutline()) ?? []).map((entry) => entry.title);
  await document.destroy();
  return { pages, outline, innerLinks };
}

/** Fetches a PDF URL as a browser would (no token) until it is ready; what "not ready" looked like meanwhile. */
async function download(url: string) {
  const waits: Array<{ status: number; retryAfter: string | null; message: string }> = [];
  const bytes = await until(
    'the PDF to be ready',
    async () => {
      const response = await fetch(url);
      if (response.status === 200) {
        assert.is(response.headers.get('content-type'), 'application/pdf');
        return new Uint8Array(await response.arrayBuffer());
      }
      waits.push({ status: response.status, retryAfter: response.headers.get('retry-after'), message: (await response.json()).error.message });
      return undefined;
    },
    60_000,
  );
  return { bytes, waits };
}

let spaceId: string;
let base: string;
let pages: Page[];

test('GET .../pdf answers {url} at once; the URL serves a PDF with a title page, contents with page numbers, one chapter per page and bookmarks', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Product guide', template: { id: 'getting-started' } } })).body;
  spaceId = space.id;
  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.editor.token, body: { subject: 'Deployment docs' } })).body;
  base = `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`;
  const tabs = '{% tabs %}\n{% tab title="npm" %}\nnpm install quire\n{% endtab %}\n\n{% tab title="yarn" %}\nyarn add quire\n{% endtab %}\n{% endtabs %}\n';
  const markdown = '# Deploying\n\n{% hint style="warning" %}\nBack up first.\n{% endhint %}\n\n```sh\nquire deploy --prod\n```\n\n![tracker](' + remoteImage + ')\n\n' + tabs;
  assert.is((await t.call('POST', `${base}/content`, { token: fx.editor.token, body: { changes: [{ operation: 'insert_page', at: 4, document: { markdown } }] } })).status, 200);
  pages = flat((await t.call('GET', `${base}/content/pages`, { token: fx.reader.token })).body.pages).filter((page) => (page as { type?: string }).type === 'document');

  const asked = await t.call('GET', `${base}/pdf`, { token: fx.reader.token });
  assert.is(asked.status, 200);
  const { origin } = new URL((fx.org.urls as { location: string }).location);
  assert.match(asked.body.url, new RegExp(`^${origin}/v1/spaces/${space.id}/change-requests/${changeRequest.id}/pdf/[0-9a-f]{32}\\?expires=\\d+&signature=`));

  const { bytes, waits } = await download(asked.body.url);
  for (const wait of waits) assert.equal(wait, { status: 503, retryAfter: '2', message: 'The PDF is not ready yet: it is being rendered. Try again in 2 seconds.' });
  const pdf = await readPdf(bytes);
  assert.ok(pdf.pages[0]!.startsWith('Product guide Change request #1: Deployment docs — revision'), pdf.pages[0]);
  assert.ok(pdf.pages[1]!.startsWith('Contents'), pdf.pages[1]);
  assert.is(pdf.pages.length, 2 + pages.length, 'a title page, the contents, a page per chapter (each is short)');
  for (const page of pages) {
    const listed = new RegExp(`${page.title}[ .]*(\\d+)`).exec(pdf.pages[1]!);
    assert.ok(listed, `${page.title} is in the contents: ${pdf.pages[1]}`);
    const number = Number(listed![1]);
    assert.ok(pdf.pages[number - 1]!.startsWith(page.title), `${page.title} starts page ${number}: ${pdf.pages[number - 1]}`);
    assert.ok(pdf.outline.includes(page.title), `${page.title} is a bookmark: ${pdf.outline}`);
  }
  const deploying = pdf.pages.find((text) => text.startsWith('Deploying'))!;
  assert.match(deploying, /Back up first\. quire deploy --prod \[tracker\]/, 'the hint and the code are there, the remote image only as its alt text');
  assert.match(deploying, /npm npm install quire yarn yarn add quire/, 'every tab is printed open, not only the first');
  assert.is(pdf.innerLinks[1], pages.length, 'each entry of the contents links to its chapter');
  const introduction = pdf.pages.findIndex((text, index) => index > 1 && text.startsWith(pages[0]!.title));
  assert.is(pdf.innerLinks[introduction], 2, 'the links to the quick start and the FAQ lead to their chapters');
  assert.match(deploying, /Product guide 3 \/ 7$|Product guide \d+ \/ \d+$/, 'header and footer with page numbers');
  assert.is(imageHits, 0, 'the external image was never fetched');
});

test('the same revision and options reuse the stored PDF; another page or another revision is another PDF', async () => {
  const first = (await t.call('GET', `${base}/pdf`, { token: fx.reader.token })).body.url;
  const exportId = new URL(first).pathname.split('/').pop()!;
  const renderedAt = () => pdfExportStatus(t.server.db, spaceId, exportId).then((status) => (status?.state === 'ready' ? status.renderedAt : undefined));
  const rendered = await renderedAt();
  assert.ok(rendered, 'rendered once');
  const again = (await t.call('GET', `${base}/pdf`, { token: fx.editor.token })).body.url;
  assert.is(again, first);
  assert.is((await fetch(again)).status, 200, 'ready at once');
  assert.is(await renderedAt(), rendered, 'not rendered again');

  const faq = pages.find((page) => page.title === 'FAQ')!;
  const only = (await t.call('GET', `${base}/pdf?only=true&page=${faq.id}`, { token: fx.reader.token })).body.url;
  assert.is.not(only, first);
  const pdf = await readPdf((await download(only)).bytes);
  assert.is(pdf.pages.length, 3, 'title page, contents, the one chapter');
  assert.ok(pdf.pages[2]!.startsWith('FAQ Where do I start?'), pdf.pages[2]);
  assert.match(pdf.pages[1]!, /^Contents FAQ[ .]*3/);
});

test('GET /spaces/{id}/pdf prints the space’s own content, at its current revision', async () => {
  const asked = await t.call('GET', `/v1/spaces/${spaceId}/pdf`, { token: fx.reader.token });
  assert.is(asked.status, 200);
  assert.match(asked.body.url, new RegExp(`/v1/spaces/${spaceId}/pdf/[0-9a-f]{32}\\?expires=\\d+&signature=`));
  const pdf = await readPdf((await download(asked.body.url)).bytes);
  const revision = (await t.call('GET', `/v1/spaces/${spaceId}`, { token: fx.reader.token })).body.revision as string;
  assert.ok(pdf.pages[0]!.startsWith(`Product guide Revision ${revision.slice(0, 7)}`), pdf.pages[0]);
  assert.not.ok(pdf.outline.includes('Deploying'), 'the change request’s page is not in the space’s PDF');
  assertErrorIs(await t.call('GET', `/v1/spaces/${spaceId}/pdf?only=true&page=nope`, { token: fx.reader.token }), 404, `Page nope not found in space ${spaceId}`);
});

test('errors: only without page, an unknown page or change request, a link tampered with or expired, another organization', async () => {
  assertErrorIs(await t.call('GET', `${base}/pdf?only=true`, { token: fx.reader.token }), 400, '"only" needs "page": the id of the page to export');
  assertErrorIs(await t.call('GET', `${base}/pdf?only=true&page=nope`, { token: fx.reader.token }), 404, 'Page nope not found in change request 1');
  assertErrorIs(await t.call('GET', `/v1/spaces/${spaceId}/change-requests/99/pdf`, { token: fx.reader.token }), 404, `Change request 99 not found in space ${spaceId}`);
  const url = (await t.call('GET', `${base}/pdf`, { token: fx.reader.token })).body.url as string;
  const tampered = await fetch(url.replace(/signature=./, (match) => (match.endsWith('A') ? 'signature=B' : 'signature=A')));
  assert.is(tampered.status, 403);
  assert.is((await tampered.json()).error.message, 'The download link is not valid: its signature doesn’t match');
  const unsigned = new URL(url).pathname;
  assert.is((await fetch(`${t.url}${unsigned}`, { headers: { authorization: `Bearer ${fx.reader.token}` } })).status, 200, 'with a token instead of a signature');
  assert.is((await fetch(`${t.url}${unsigned}`)).status, 401, 'neither token nor signature');
  assertErrorIs(await t.call('GET', `/v1/spaces/${spaceId}/change-requests/1/pdf/${'0'.repeat(32)}`, { token: fx.reader.token }), 404, `PDF ${'0'.repeat(32)} not found in space ${spaceId}`);
  assert.is((await t.call('GET', `${base}/pdf`, { token: fx.outsider.token })).status, 404);
});

test.run();
