import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { questionTypeOf, wordingOf } from '../../domain/answers/index.js';
import type { OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { signedInBrowser } from '../helpers/formBrowser.js';
import { givePasswords } from '../helpers/processes.js';
import { siteMaker } from '../helpers/sites.js';
import { withOrganization } from '../helpers/suite.js';

// What readers asked a site (listSiteQuestions and the seven operations beside it): every
// answer the site's Ask page or streamAskInSite gave is kept with its question and the pages it
// drew on, judged by plain rules, rated by readers through ask_rate_response; nothing of the
// asker kept, nothing kept for a reader who asks not to be tracked.
const test = suite('questions readers asked');
let t: TestServer;
let fx: OrganizationFixture;
let spaceId = '';
let installPage = '';
let site: { id: string; urls: { published: string } };
const password = 'correct horse battery staple';
const sites = siteMaker(() => ({ t, fx }));
const questions = () => `/v1/orgs/${fx.org.id}/sites/${site.id}`;

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
          document: { markdown: '## How do I install the CLI?\n\nRun `npm install -g acme-cli` to install the command line tool. It needs Node 20 or later.\n' },
        },
        { operation: 'insert_page', title: 'Billing', document: { markdown: 'Invoices are sent on the first day of each month, by email to the account owner.\n' } },
      ],
    },
  });
  assert.is(written.status, 200, JSON.stringify(written.body));
  assert.is((await t.call('POST', `/v1/spaces/${spaceId}/change-requests/${opened.body.id}/merge`, { token: fx.admin.token })).status, 200);
  installPage = (await t.call('GET', `/v1/spaces/${spaceId}/content/pages`, { token: fx.admin.token })).body.pages.find((page: { title: string }) => page.title === 'Installing').id;
  site = await sites.publishedSite('CLI docs', [spaceId]);
});

const askOnPage = (question: string, headers: Record<string, string> = {}) => fetch(`${site.urls.published}~ask?q=${encodeURIComponent(question)}`, { headers });
async function askThroughApi(question: string) {
  const response = await fetch(`${t.url}${questions()}/ask?format=markdown`, {
    method: 'POST',
    headers: { authorization: `Bearer ${fx.reader.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ question, scope: { mode: 'default' } }),
  });
  assert.is(response.status, 200);
  await response.text();
}

test('questions are typed by their words, and one wording is one question', () => {
  assert.is(questionTypeOf('How do I install the CLI?'), 'how-to');
  assert.is(questionTypeOf('The install fails with an EACCES error'), 'troubleshooting');
  assert.is(questionTypeOf('Which Node versions are supported?'), 'reference');
  assert.is(questionTypeOf('Why choose Acme over the others'), 'exploring');
  assert.is(questionTypeOf('pricing'), 'unknown');
  assert.is(wordingOf('  How do I   install the CLI?? '), wordingOf('how do i install the cli'));
});

test('each answer is kept with its question, verdicts and sources, for the site’s members', async () => {
  assert.is((await askOnPage('How do I install the CLI?')).status, 200);
  assert.is((await askOnPage('how do I install the CLI')).status, 200);
  await askThroughApi('How do I install the CLI?');
  assert.is((await askOnPage('Quantum flux capacitor warranty')).status, 200);
  // A reader who asks not to be tracked is answered, and nothing of the question is kept.
  assert.is((await askOnPage('Where are invoices sent?', { DNT: '1' })).status, 200);

  const listed = await t.call('GET', `${questions()}/questions`, { token: fx.reader.token });
  assert.is(listed.status, 200, JSON.stringify(listed.body));
  assert.is(listed.body.count, 2, JSON.stringify(listed.body.items.map((question: { question: string }) => question.question)));
  const install = listed.body.items.find((question: { question: string }) => /install/i.test(question.question));
  assert.is(install.type, 'how-to');
  assert.is(install.stats.answers, 3);
  assert.equal(install.stats.answered, { yes: 3, partially: 0, no: 0 });
  assert.equal(install.stats.channelTypes, { site: 2, api: 1 });
  assert.is(install.stats.weeklyPulse.length, 13);
  assert.is(install.stats.weeklyPulse[12], 3);
  const unanswered = listed.body.items.find((question: { question: string }) => /capacitor/.test(question.question));
  assert.equal(unanswered.stats.answered, { yes: 0, partially: 0, no: 1 });
  assert.equal(unanswered.stats.relevance, { relevant: 0, spam: 0, 'off-topic': 1, unclear: 0 });
  assert.not.ok(
    listed.body.items.some((question: { question: string }) => /invoices/i.test(question.question)),
    'a DNT question is not kept',
  );

  const stats = await t.call('GET', `${questions()}/question-stats`, { token: fx.reader.token });
  assert.is(stats.body.total, 2);
  assert.is(stats.body.answers, 4);
  assert.equal(stats.body.feedback, { positive: 0, negative: 0, unrated: 4 });

  const one = await t.call('GET', `${questions()}/questions/${install.id}?channelType=api`, { token: fx.reader.token });
  assert.is(one.status, 200);
  assert.is(one.body.stats.answers, 1, 'the filters narrow the figures');

  const sources = await t.call('GET', `${questions()}/questions/${install.id}/sources`, { token: fx.reader.token });
  assert.is(sources.status, 200);
  assert.is(sources.body.items[0].page, installPage);
  assert.is(sources.body.items[0].space, spaceId);
  assert.is(sources.body.items[0].weight, 1);
  assert.is(sources.body.items[0].urls.location, `${site.urls.published}installing`);
  assert.is((await fetch(sources.body.items[0].urls.location)).status, 200, 'a source links to its page on the site');
});

test('answers are listed with their response, filtered, paged, and rated by readers', async () => {
  const answers = await t.call('GET', `${questions()}/answers?limit=1`, { token: fx.reader.token });
  assert.is(answers.status, 200);
  assert.is(answers.body.count, 4);
  assert.is(answers.body.items.length, 1);
  const next = await t.call('GET', `${questions()}/answers?limit=1&page=${encodeURIComponent(answers.body.next.page)}`, { token: fx.reader.token });
  assert.is(next.body.items.length, 1);
  assert.is.not(next.body.items[0].id, answers.body.items[0].id);

  const fromApi = await t.call('GET', `${questions()}/answers?channelType=api`, { token: fx.reader.token });
  assert.is(fromApi.body.count, 1);
  const answer = fromApi.body.items[0];
  assert.equal(answer.channel, { type: 'api' });
  assert.is(answer.answered, 'yes');
  assert.is(answer.relevance, 'relevant');
  const withResponse = await t.call('GET', `${questions()}/answers/${answer.id}`, { token: fx.reader.token });
  assert.is(withResponse.body.response.role, 'assistant');
  assert.match(JSON.stringify(withResponse.body.response.steps[0].content), /npm install -g acme-cli/);
  const byRepeat = await t.call('GET', `${questions()}/answers?answered=no&answered=partially`, { token: fx.reader.token });
  assert.is(byRepeat.body.count, 1, 'a filter given twice is either value');

  // A reader rates the answer through the site's insights events: kept on it, counted in the figures.
  const tracked = await t.call('POST', `${questions()}/insights/events`, {
    token: fx.reader.token,
    body: {
      events: [
        { type: 'ask_rate_response', query: 'How do I install the CLI?', rating: -1, responseId: answer.id, location: { url: site.urls.published }, session: { sessionId: 's', visitorId: 'v' } },
      ],
    },
  });
  assert.is(tracked.status, 204, JSON.stringify(tracked.body));
  const rated = await t.call('GET', `${questions()}/answers/${answer.id}`, { token: fx.reader.token });
  assert.equal(rated.body.feedback, { rating: -1 });
  assert.equal((await t.call('GET', `${questions()}/question-stats`, { token: fx.reader.token })).body.feedback, { positive: 0, negative: 1, unrated: 3 });

  const thread = await t.call('GET', `${questions()}/answers/${answer.id}/thread`, { token: fx.reader.token });
  assert.equal(
    thread.body.map((message: { id: string }) => message.id),
    [answer.id],
  );
  const answerSources = await t.call('GET', `${questions()}/answers/${answer.id}/sources`, { token: fx.reader.token });
  assert.is(answerSources.body.items[0].page, installPage);
});

test('the app’s site page lists the questions asked most, as text', async () => {
  assert.is((await askOnPage('How do I <b>install</b> the CLI?')).status, 200);
  await givePasswords(t.dataDir, [fx.admin], password);
  const app = await signedInBrowser(t.url, fx.admin.email, password);
  const sitePage = await app.get(`/app/o/${fx.org.id}/sites/${site.id}`);
  assert.is(sitePage.status, 200);
  const section = sitePage.html.slice(sitePage.html.indexOf('<section id="questions"'));
  assert.match(section, /<caption>Questions asked most<\/caption>.*<td>How do I install the CLI\?<\/td><td>how-to<\/td><td>3<\/td><td>3 \/ 0 \/ 0<\/td><td>0 \/ 1<\/td>/s);
  assert.match(section, /<td>How do I &#x3C;b>install&#x3C;\/b> the CLI\?<\/td>/);
  assert.not.match(section, /<b>/, 'a question is text, never markup');
});

test('bad input and other sites’ ids are refused clearly', async () => {
  const bad = await t.call('GET', `${questions()}/questions?answered=maybe`, { token: fx.reader.token });
  assert.is(bad.status, 400);
  assert.match(bad.body.error.message, /answered/);
  assert.is((await t.call('GET', `${questions()}/answers/nope`, { token: fx.reader.token })).status, 404);
  assert.is((await t.call('GET', `${questions()}/questions/nope/sources`, { token: fx.reader.token })).status, 404);
  const other = await sites.publishedSite('Other docs', [spaceId]);
  const answer = (await t.call('GET', `${questions()}/answers`, { token: fx.reader.token })).body.items[0];
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${other.id}/answers/${answer.id}`, { token: fx.reader.token })).status, 404);
  assert.is((await t.call('GET', `${questions()}/questions`)).status, 401);
});

test('a deleted site’s questions go with it', async () => {
  const doomed = await sites.publishedSite('Doomed docs', [spaceId]);
  assert.is((await fetch(`${doomed.urls.published}~ask?q=install`)).status, 200);
  assert.is((await t.call('GET', `/v1/orgs/${fx.org.id}/sites/${doomed.id}/questions`, { token: fx.reader.token })).body.count, 1);
  assert.is((await t.call('DELETE', `/v1/orgs/${fx.org.id}/sites/${doomed.id}`, { token: fx.admin.token })).status, 205);
  const left = await t.server.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM site_question_answers WHERE site_id = ?', [doomed.id]);
  assert.is(Number(left?.n), 0);
});

test.run();
