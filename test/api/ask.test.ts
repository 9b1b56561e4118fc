import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { nothingFound } from '../../domain/answers/index.js';
import { configureIntegrations, integrations } from '../../domain/common/integrations.js';
import { assertErrorIs, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';
import { assertUpstreamSchema } from '../helpers/upstream.js';

// Answers for readers: askInOrganization and its streams, streamAskInSite, recommended questions.
// Without a chat model an answer quotes the documentation; with one (a small OpenAI-compatible
// server on loopback) the model writes it from the sections found, which it cites.
const test = suite('answers from the documentation');
let t: TestServer;
let fx: OrganizationFixture;
let spaceId = '';
let installPage = '';
const sites = siteMaker(() => ({ t, fx }));

withOrganization(test, (setup) => ({ t, fx } = setup));

test.before(async () => {
  const space = await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Acme CLI' } });
  spaceId = space.body.id;
  const opened = await t.call('POST', `/v1/spaces/${spaceId}/change-requests`, { token: fx.admin.token, body: { subject: 'Pages' } });
  const written = await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.body.id}/content`, {
    token: fx.admin.token,
    body: {
      changes: [
        {
          operation: 'insert_page',
          title: 'Installing',
          document: {
            markdown:
              '## How do I install the CLI?\n\nRun `npm install -g acme-cli` to install the command line tool. It needs Node 20 or later.\n\n## Upgrading\n\nRun the same command again to upgrade the CLI.\n',
          },
        },
        { operation: 'insert_page', title: 'Billing', document: { markdown: 'Invoices are sent on the first day of each month, by email to the account owner.\n' } },
      ],
    },
  });
  assert.is(written.status, 200, JSON.stringify(written.body));
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.body.id}/merge`, { token: fx.admin.token })).status, 200);
  const pages = await t.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token: fx.admin.token });
  installPage = pages.body.pages.find((page: { title: string }) => page.title === 'Installing').id;
});

const ask = (query: string, token = fx.reader.token, format = 'markdown') => t.call('POST', `/v1/orgs/${fx.org.id}/ask?format=${format}`, { token, body: { query } });

/** The events of a server-sent stream, as JSON. */
async function events(response: Response): Promise<Array<Record<string, unknown>>> {
  assert.is(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as Record<string, unknown>);
}

test('a question is answered with the documentation’s own sentences, the page and section cited', async () => {
  const answered = await ask('How do I install the CLI?');
  assert.is(answered.status, 200, JSON.stringify(answered.body));
  const { answer } = answered.body;
  assert.match(answer.answer.markdown, /npm install -g acme-cli/);
  // The index keeps the text as read (code marks dropped): the quote is that text, its markdown characters escaped.
  assert.match(answer.answer.markdown, /> Run npm install -g acme-cli to install the command line tool\./, answer.answer.markdown);
  assert.is(answer.sources[0].type, 'page');
  assert.is(answer.sources[0].page, installPage);
  assert.is(answer.sources[0].space, spaceId);
  assert.ok(answer.sources[0].sections.length >= 1);
  assert.not.ok(
    answer.sources.some((source: { page: string }) => source.page !== installPage && /Invoices/.test(answer.answer.markdown)),
    'the billing page is not quoted for an install question',
  );

  const document = await ask('How do I install the CLI?', fx.reader.token, 'document');
  assert.is(document.body.answer.answer.document.object, 'document');

  const nothing = await ask('What is the refund policy for yachts?');
  assert.is(nothing.body.answer.answer.markdown, nothingFound);
  assert.equal(nothing.body.answer.sources, []);
});

test('an answer comes only from what the asker reads', async () => {
  const guest = await ask('How do I install the CLI?', fx.guest.token);
  assert.is(guest.status, 200);
  assert.is(guest.body.answer.answer.markdown, nothingFound, 'a guest not invited to the space learns nothing of it');
  assertErrorIs(await ask('How do I install the CLI?', fx.outsider.token), 404, `Organization ${fx.org.id} not found`);
  assertErrorIs(await t.call('POST', `/v1/orgs/${fx.org.id}/ask`, { token: fx.reader.token, body: { query: '' } }), 400, 'Invalid request body: "query" must NOT have fewer than 1 characters');
});

test('the streams send the answer and the recommended questions as server-sent events', async () => {
  const streamed = await events(
    await fetch(`${t.url}/v1/orgs/${fx.org.id}/ask/stream?format=markdown&query=${encodeURIComponent('how to upgrade the cli')}`, { headers: { authorization: `Bearer ${fx.reader.token}` } }),
  );
  assert.is(streamed.length, 1);
  assertUpstreamSchema('SearchAIAnswerStream', streamed[0]);
  assert.match((streamed[0]!.answer as { answer: { markdown: string } }).answer.markdown, /Run the same command again to upgrade the CLI\./);

  const recommended = await t.call('GET', `/v1/orgs/${fx.org.id}/ask/questions`, { token: fx.reader.token });
  assert.equal(recommended.body.questions, ['How do I install the CLI?']);
  const questions = await events(await fetch(`${t.url}/v1/orgs/${fx.org.id}/ask/questions/stream`, { headers: { authorization: `Bearer ${fx.reader.token}` } }));
  for (const question of questions) assertUpstreamSchema('SearchAIRecommendedQuestionStream', question);
  assert.equal(questions, [{ question: 'How do I install the CLI?' }]);
});

test('a site answers from its own spaces', async () => {
  const other = await sites.space('Elsewhere');
  const site = await sites.publishedSite('CLI docs', [spaceId]);
  const response = await fetch(`${t.url}/v1/orgs/${fx.org.id}/sites/${site.id}/ask?format=markdown`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.reader.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question: 'Which Node version does the CLI need?', scope: { mode: 'default' } }),
  });
  const [event] = await events(response);
  assertUpstreamSchema('SearchAIAnswerStream', event);
  const answer = event!.answer as { answer: { markdown: string }; sources: Array<{ space: string }> };
  assert.match(answer.answer.markdown, /It needs Node 20 or later\./);
  assert.ok(answer.sources.every((source) => source.space === spaceId && source.space !== other.id));
  const questions = await events(await fetch(`${t.url}/v1/orgs/${fx.org.id}/sites/${site.id}/ask/questions`, { headers: { authorization: `Bearer ${fx.reader.token}` } }));
  assert.equal(questions, [{ question: 'How do I install the CLI?' }]);
  const forSpace = await fetch(`${t.url}/v1/orgs/${fx.org.id}/sites/${site.id}/ask/questions?spaceId=${spaceId}`, { headers: { authorization: `Bearer ${fx.reader.token}` } });
  assert.equal(await events(forSpace), [{ question: 'How do I install the CLI?' }], '`spaceId` names a space the site shows');
  const notShown = await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${site.id}/ask/questions?spaceId=${other.id}`, { token: fx.reader.token });
  assert.is(notShown.status, 400);
  assert.match(notShown.body.error.message, /"spaceId" names .*, which no site space of this site shows/);

  // The published site's own question page: no token, no script; the passage quoted under a link to its page.
  const home = await fetch(site.urls.published);
  const base = new URL(site.urls.published).pathname;
  assert.match(await home.text(), new RegExp(`<a href="${base}~ask" class="ask" data-needs-server="">Ask</a>`));
  const page = await fetch(`${site.urls.published}~ask?q=${encodeURIComponent('How do I <b>install</b> the CLI?')}`);
  assert.is(page.status, 200);
  assert.is(page.headers.get('cache-control'), 'no-store');
  const html = await page.text();
  assert.match(
    html,
    /<blockquote><p>Run npm install -g acme-cli to install the command line tool\.<\/p><\/blockquote><figcaption><a href="[^"]*installing#[^"]+">Installing › How do I install the CLI\?<\/a><\/figcaption>/,
  );
  // The question is an attribute's text (quoted, its quotes escaped): the only place its `<b>` appears.
  assert.match(html, /value="How do I <b>install<\/b> the CLI\?"/);
  assert.is(html.split('<b>install</b>').length, 2, 'the question is text, never markup');
  assert.not.match(html.slice(html.indexOf('<section class="answer"'), html.indexOf('</section>')), /Billing|Invoices/, 'the billing page is no answer to this question');
});

test('a site’s assistant (streamAIResponseInSite) answers the last user message as one final step, its id the kept answer’s', async () => {
  const site = await sites.publishedSite('Assistant docs', [spaceId]);
  const path = `/v1/orgs/${fx.org.id}/sites/${site.id}`;
  const visitor = (await t.call('POST', '/v1/urls/published', { body: { url: site.urls.published } })).body.apiToken as string;
  const response = await fetch(`${t.url}${path}/ai/response`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      input: [
        { role: 'user', content: 'Hello' },
        { role: 'assistant', content: 'Hi! Ask me about the CLI.' },
        {
          role: 'user',
          content: {
            object: 'document',
            data: {},
            nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Which Node version does the CLI need?', marks: [] }] }] }],
          },
        },
      ],
      model: 'reasoning-low',
      tools: [{ name: 'getPageContext', description: 'The page the reader is on', inputSchema: {} }],
      session: { visitorId: 'v1', sessionId: 's1' },
      channel: { type: 'site' },
    }),
  });
  const streamed = await events(response);
  for (const event of streamed) assertUpstreamSchema('AIStreamResponse', event, 'newer');
  assert.equal(
    streamed.map((event) => event.type),
    ['response_start', 'response_step_start', 'response_document', 'response_finish'],
  );
  const document = streamed.find((event) => event.type === 'response_document')!;
  assert.match(JSON.stringify(document.blocks), /It needs Node 20 or later\./);
  const finish = streamed.at(-1) as { messageId: string; response: { id: string } };
  // The answer is kept for the site's editors, under the id a reader's rating names.
  const kept = await t.call('GET', `${path}/answers/${finish.response.id}`, { token: fx.reader.token });
  assert.is(kept.status, 200);
  assert.is(kept.body.input.raw, 'Which Node version does the CLI need?');
  assert.equal(kept.body.channel, { type: 'site' });

  const nothingAsked = await fetch(`${t.url}${path}/ai/response`, {
    method: 'POST',
    headers: { authorization: `Bearer ${visitor}`, 'content-type': 'application/json' },
    body: JSON.stringify({ input: [] }),
  });
  assert.is(nothingAsked.status, 400);
  assert.match(JSON.stringify(await nothingAsked.json()), /no user message/);
});

test('with a chat model, the model writes the answer from the sections found and its citations are the sources', async () => {
  const asked: Array<{ model: string; messages: Array<{ role: string; content: string }> }> = [];
  let failing = false;
  const model = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      if (failing) {
        response.writeHead(503).end();
        return;
      }
      asked.push(JSON.parse(body));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          choices: [{ message: { content: 'Install it with `npm install -g acme-cli` [1]; it needs Node 20 [1].' } }],
          usage: { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
  const before = integrations().chatModel;
  configureIntegrations({ chatModel: { url: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, model: 'docs-model' } });
  try {
    const answered = await ask('How do I install the CLI?');
    assert.is(answered.status, 200);
    assert.is(answered.body.answer.answer.markdown, 'Install it with `npm install -g acme-cli` [1]; it needs Node 20 [1].');
    assert.equal(
      answered.body.answer.sources.map((source: { page: string }) => source.page),
      [installPage],
    );
    assert.is(asked.length, 1);
    assert.is(asked[0]!.model, 'docs-model');
    const prompt = asked[0]!.messages.find((message) => message.role === 'user')!.content;
    assert.match(prompt, /\[1\] Installing › How do I install the CLI\?\nRun npm install -g acme-cli/);
    assert.match(prompt, /Question: How do I install the CLI\?$/);
    // A model that fails: the documentation is quoted instead.
    failing = true;
    const quoted = await ask('How do I install the CLI?');
    assert.match(quoted.body.answer.answer.markdown, /> Run npm install -g acme-cli/);

    // Each answer the model wrote counts against the organization's AI usage; the failed call, nothing.
    const today = new Date().toISOString().slice(0, 10);
    const usage = (query: string, token = fx.admin.token) => t.call('GET', `/v1/orgs/${fx.org.id}/billing/ai-usage?${query}`, { token });
    const daily = await usage(`from=${today}T00:00:00Z&to=2100-01-01T00:00:00Z`);
    assert.is(daily.status, 200, JSON.stringify(daily.body));
    assert.is(daily.body.periods.length, 1, 'the range ends now');
    assert.equal(daily.body.periods[0], { date: today, credits: 1.5, features: [{ feature: 'ask', credits: 1.5, creditsPercent: 100 }] });
    const monday = new Date(Date.parse(`${today}T00:00:00Z`) - ((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7) * 86_400_000).toISOString().slice(0, 10);
    const weekly = await usage(`from=${monday}T00:00:00Z&to=2100-01-01T00:00:00Z&interval=week`);
    assert.equal(
      weekly.body.periods.map((period: { date: string; credits: number }) => [period.date, period.credits]),
      [[monday, 1.5]],
    );
    const before = await usage(`from=2020-01-01T00:00:00Z&to=2020-01-08T00:00:00Z`);
    assert.is(before.body.periods.length, 7);
    assert.ok(before.body.periods.every((period: { credits: number; features: unknown[] }) => period.credits === 0 && period.features.length === 0));
    assert.is((await usage(`from=2020-01-02T00:00:00Z&to=2020-01-01T00:00:00Z`)).status, 400);
    assert.equal((await usage(`from=2020-01-02T00:00:00Z&to=2020-01-02T00:00:00Z`)).body.periods, [], 'an empty range holds no period');
    assert.equal((await usage(`from=2100-01-01T00:00:00Z&to=2100-02-01T00:00:00Z`)).body.periods, [], 'nor one still to come');
    assert.is((await usage(`from=2000-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`)).status, 400, 'more than 1,000 days');
    assert.is((await usage(`from=2000-01-01T00:00:00Z&to=2020-01-01T00:00:00Z&interval=month`)).status, 200);
    assert.is((await usage(`from=2020-01-01T00:00:00Z&to=2020-01-08T00:00:00Z`, fx.reader.token)).status, 403);
  } finally {
    configureIntegrations({ chatModel: before });
    await new Promise((resolve) => model.close(resolve));
  }
});

test.run();
