import { execFileSync } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import { projectRoot } from '../helpers/processes.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';

/** Documents in bodies (comments, descriptions, page content, instructions) are checked block by block against upstream's schemas. */
const test = suite('Document bodies');
let t: TestServer;
let fx: OrganizationFixture;
withOrganization(test, (setup) => ({ t, fx } = setup));

const text = (value: string, marks: string[] = []) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: marks.map((type) => ({ object: 'mark', type })) }] });
const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
const documentOf = (...nodes: unknown[]) => ({ object: 'document', data: {}, nodes });

test('misshapen blocks, unknown block and mark types are a 400 naming where; a valid document is stored and read back', async () => {
  const space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Docs' } })).body;
  const comments = `/v1/spaces/${space.id}/comments`;
  const notA = (path: string, kind: string) => `Invalid request body: "${path}" is not a Document ${kind} of any type upstream defines (check its "type", "object" and fields)`;
  const refused: Array<[unknown, string]> = [
    [documentOf({ object: 'block', type: 'nonsense', nodes: [text('hi')] }), notA('body.document.nodes[0]', 'node')],
    [documentOf(paragraph(text('hi', ['blink']))), notA('body.document.nodes[0].nodes[0].leaves[0].marks[0]', 'mark')],
    [documentOf({ object: 'block', type: 'heading-1', nodes: 'x' }), notA('body.document.nodes[0]', 'node')],
    [documentOf(paragraph({ object: 'text', leaves: [{ object: 'leaf', text: 5, marks: [] }] })), notA('body.document.nodes[0].nodes[0]', 'node')],
  ];
  for (const [document, message] of refused) {
    assertErrorIs(await t.call('POST', comments, { token: fx.admin.token, body: { body: { document } } }), 400, message, JSON.stringify(document));
  }
  assert.is((await t.call('GET', comments, { token: fx.admin.token })).body.count, 0, 'none stored');

  const valid = documentOf(paragraph(text('Looks '), text('good', ['bold'])));
  const posted = await t.call('POST', comments, { token: fx.admin.token, body: { body: { document: valid } } });
  assert.is(posted.status, 200);
  const read = (await t.call('GET', `${comments}/${posted.body.id}`, { token: fx.admin.token })).body;
  assert.equal(read.body, { markdown: 'Looks **good**' });

  const changeRequest = (await t.call('POST', `/v1/spaces/${space.id}/change-requests`, { token: fx.admin.token, body: {} })).body;
  assertErrorIs(
    await t.call('PATCH', `/v1/spaces/${space.id}/change-requests/${changeRequest.id}`, { token: fx.admin.token, body: { description: refused[0]![0] } }),
    400,
    'Invalid request body: "description.nodes[0]" is not a Document node of any type upstream defines (check its "type", "object" and fields)',
  );
});

test('the vendored Document schemas are the installed @gitbook/api package’s', () => {
  execFileSync(process.execPath, ['scripts/upstreamSchemas.mjs', '--check'], { cwd: projectRoot, stdio: 'pipe' });
});

test.run();
