import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { organizationWithMembers, type OrganizationFixture } from '../helpers/fixtures.js';
import { until } from '../helpers/poll.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { reportingErrors } from '../helpers/suite.js';
import { configureIntegrations } from '../../domain/common/integrations.js';

const test = suite('conversations with a chat model configured');
let t: TestServer;
let fx: OrganizationFixture;
let model: Server;
const transcripts: string[] = [];

const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};
const answer = (content: string) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });

test.before(
  reportingErrors(async () => {
    // A loopback OpenAI-compatible endpoint: what it answers depends on the conversation's subject.
    model = createServer(async (req, res) => {
      const transcript = (await bodyOf(req)).messages[1].content as string;
      transcripts.push(transcript);
      if (transcript.includes('Subject: down')) return void res.writeHead(500).end('overloaded');
      if (transcript.includes('Subject: garbled')) return void res.writeHead(200, { 'content-type': 'application/json' }).end(answer('I think the user has a problem.'));
      const issues = [
        { title: 'Exporting a space to PDF times out', summary: 'The PDF export of a space with 300 pages never finishes.' },
        { title: 'Quantum blockchain widgets', summary: 'Customers demand holographic synergy dashboards for quarterly metaverse revenue.' },
      ];
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer('```json\n' + JSON.stringify({ issues }) + '\n```'));
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    configureIntegrations({ chatModel: { url: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, model: 'gpt-4o-mini' } });
    t = await startTestServer({}, { worker: true });
    fx = await organizationWithMembers(t);
  }),
);
test.after(async () => {
  await t?.close();
  model?.closeAllConnections();
  model?.close();
  configureIntegrations({ chatModel: undefined });
});

const base = () => `/v1/orgs/${fx.org.id}`;
const user = (body: string) => ({ type: 'message', role: 'user', body });
async function issuesAfterProcessing(id: string) {
  await until(`conversation ${id} to be processed`, async () => (await t.call('GET', `${base()}/conversations/${id}`, { token: fx.admin.token })).body.conversation.processedAt);
  return (await t.call('GET', `${base()}/conversations-issues?conversation=${id}`, { token: fx.admin.token })).body.items.map((item: any) => item.issue);
}

test("the model's issues are kept when the conversation grounds them, dropped when invented", async () => {
  const text = 'Exporting our space to PDF never finishes, the export keeps going for an hour. The space has 300 pages. Reach me at ops@example.com.';
  assert.is((await t.call('POST', `${base()}/conversations`, { token: fx.admin.token, body: { id: 'm-1', subject: 'PDF export', parts: [user(text)] } })).status, 204);
  const issues = await issuesAfterProcessing('m-1');
  assert.equal(
    issues.map((issue: any) => [issue.title, issue.summary]),
    [['Exporting a space to PDF times out', 'The PDF export of a space with 300 pages never finishes.']],
  );
  const sent = transcripts.find((transcript) => transcript.includes('Subject: PDF export'))!;
  assert.ok(sent.includes('user: Exporting our space to PDF never finishes') && sent.includes('[email]') && !sent.includes('ops@example.com'), 'the model sees the redacted text');
});

test('when the endpoint fails or answers another shape, the issues are extracted locally', async () => {
  for (const subject of ['down', 'garbled']) {
    const id = `m-${subject}`;
    assert.is((await t.call('POST', `${base()}/conversations`, { token: fx.admin.token, body: { id, subject, parts: [user('How do I rename a page in the table of contents?')] } })).status, 204);
    const issues = await issuesAfterProcessing(id);
    assert.equal(
      issues.map((issue: any) => issue.title),
      ['How do I rename a page in the table of contents?'],
      subject,
    );
  }
});

test.run();
