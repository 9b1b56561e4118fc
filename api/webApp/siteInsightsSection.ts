import type { SiteQuestionView } from '../../domain/answers/index.js';
import type { InsightsSummary } from '../../domain/insights/index.js';
import { el, type Child } from '../../domain/documents/index.js';

/** A table of rows of text, its columns named (an empty list says so instead). */
function table(caption: string, columns: string[], rows: Array<Array<string | number>>, empty: string): Child {
  if (rows.length === 0) return el('p', {}, `${caption}: ${empty}.`);
  // A phone scrolls a wide table sideways, inside its own region, rather than the page.
  return el(
    'div',
    { className: ['table-scroll', 'insights'], tabIndex: 0, role: 'region', ariaLabel: caption },
    el(
      'table',
      {},
      el('caption', {}, caption),
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          columns.map((name) => el('th', { scope: 'col' }, name)),
        ),
      ),
      el(
        'tbody',
        {},
        rows.map((row) =>
          el(
            'tr',
            {},
            row.map((cell) => el('td', {}, String(cell))),
          ),
        ),
      ),
    ),
  );
}

/** What the site's readers did lately (docs/insights.md): pages read, searches (and those that found nothing), referrers, agents' feedback. */
export function siteInsightsSection(insights: InsightsSummary): Child {
  return el(
    'section',
    { ariaLabelledBy: 'insights-title' },
    el('h2', { id: 'insights-title' }, `Readers, last ${insights.days} days`),
    el('p', {}, `${insights.views} page ${insights.views === 1 ? 'view' : 'views'}. Counted per day, without cookies or anything about who read; not at all for readers who ask not to be tracked.`),
    table(
      'Pages read most',
      ['Page', 'Views'],
      insights.pages.map((page) => [page.path || page.page, page.views]),
      'none yet',
    ),
    table(
      'Searches and questions',
      ['Words', 'Times', 'Pages found'],
      insights.searches.map((search) => [search.query, search.searches, search.results]),
      'none yet',
    ),
    table(
      'Searches and questions that found nothing',
      ['Words', 'Times'],
      insights.unanswered.map((search) => [search.query, search.searches]),
      'none: every search found something',
    ),
    table(
      'Where readers came from',
      ['Site', 'Views'],
      insights.referrers.map((referrer) => [referrer.host, referrer.views]),
      'no other site yet',
    ),
    table(
      'Feedback from AI agents',
      ['Page', 'Feedback', 'Times'],
      insights.feedback.map((entry) => [entry.path || entry.page, entry.text, entry.times]),
      'none yet',
    ),
  );
}

/** The questions readers asked the site lately, the most asked first, with how the documentation answered them (docs/ask.md). */
export function siteQuestionsSection(questions: SiteQuestionView[], days: number): Child {
  return el(
    'section',
    { id: 'questions', ariaLabelledBy: 'questions-title' },
    el('h2', { id: 'questions-title' }, `Questions readers asked, last ${days} days`),
    table(
      'Questions asked most',
      ['Question', 'Kind', 'Times', 'Answered (yes / partly / no)', 'Rated (up / down)'],
      questions.map(({ question, type, stats }) => [
        question,
        type,
        stats.answers,
        `${stats.answered.yes} / ${stats.answered.partially} / ${stats.answered.no}`,
        `${stats.feedback.positive} / ${stats.feedback.negative}`,
      ]),
      'none yet',
    ),
  );
}
