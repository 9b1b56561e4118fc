import type { Migration } from './index.js';

export const siteQuestions: Migration = {
  version: 33,
  name: 'site-questions',
  // The questions readers ask a site (its Ask page, streamAskInSite) and each answer given: the
  // question's words, how well the documentation answered it and the pages cited, a reader's
  // rating when one comes (ask_rate_response). Nothing of the asker is kept. A question is one
  // row per site and wording (lowercased, spaces folded); each asking of it is an answer.
  sql: `
CREATE TABLE IF NOT EXISTS site_questions (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL,
  wording TEXT NOT NULL,
  question TEXT NOT NULL,
  type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (site_id, wording)
);
CREATE TABLE IF NOT EXISTS site_question_answers (
  id TEXT PRIMARY KEY,
  site_id TEXT NOT NULL,
  question_id TEXT NOT NULL REFERENCES site_questions(id) ON DELETE CASCADE,
  input TEXT NOT NULL,
  channel TEXT NOT NULL,
  answered TEXT NOT NULL,
  helpfulness TEXT NOT NULL,
  relevance TEXT NOT NULL,
  language TEXT NOT NULL,
  response TEXT NOT NULL,
  sources TEXT NOT NULL,
  rating INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS site_question_answers_by_site ON site_question_answers(site_id, created_at, id);
CREATE INDEX IF NOT EXISTS site_question_answers_by_question ON site_question_answers(question_id);
`,
};
