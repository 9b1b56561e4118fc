import type { Queryable, Transaction } from './db.js';
import { newId, now } from './ids.js';

export type QuestionType = 'exploring' | 'how-to' | 'troubleshooting' | 'reference' | 'unknown';
export type AnswerResolution = 'yes' | 'partially' | 'no';
export type AnswerRelevance = 'relevant' | 'spam' | 'off-topic' | 'unclear';
export type AnswerHelpfulness = 'low' | 'medium' | 'high';
export type AnswerChannel = 'site' | 'embed' | 'api';

/** A page an answer drew on, `weight` its share of the answer (0–1). */
export interface AnswerSourceRecord {
  spaceId: string;
  pageId: string;
  revision: string;
  title: string;
  path: string;
  weight: number;
}

export interface SiteQuestionRecord {
  id: string;
  siteId: string;
  question: string;
  type: QuestionType;
  createdAt: string;
}

export interface SiteAnswerRecord {
  id: string;
  siteId: string;
  question: SiteQuestionRecord;
  input: string;
  channel: AnswerChannel;
  answered: AnswerResolution;
  helpfulness: AnswerHelpfulness;
  relevance: AnswerRelevance;
  language: string;
  /** The answer as markdown. */
  response: string;
  sources: AnswerSourceRecord[];
  rating: 1 | -1 | null;
  createdAt: string;
  updatedAt: string;
}

export type NewSiteAnswer = Omit<SiteAnswerRecord, 'id' | 'question' | 'rating' | 'createdAt' | 'updatedAt'> & {
  question: { wording: string; text: string; type: QuestionType };
};

/** Answers kept per site: the oldest go once there are more (a site asked all day keeps a bounded table). */
export const answersKeptPerSite = 10_000;

/** Records an answer, and its question the first time that wording is asked on the site. */
export async function insertSiteAnswer(tx: Transaction, input: NewSiteAnswer): Promise<SiteAnswerRecord> {
  const at = now();
  await tx.run('INSERT INTO site_questions (id, site_id, wording, question, type, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (site_id, wording) DO NOTHING', [
    newId(),
    input.siteId,
    input.question.wording,
    input.question.text,
    input.question.type,
    at,
  ]);
  const question = (await tx.get<QuestionRow>(`SELECT ${questionColumns} FROM site_questions WHERE site_id = ? AND wording = ?`, [input.siteId, input.question.wording]))!;
  const id = newId();
  await tx.run(
    `INSERT INTO site_question_answers (id, site_id, question_id, input, channel, answered, helpfulness, relevance, language, response, sources, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.siteId, question.id, input.input, input.channel, input.answered, input.helpfulness, input.relevance, input.language, input.response, JSON.stringify(input.sources), at, at],
  );
  await forgetOldestAnswers(tx, input.siteId);
  return { ...input, id, question: questionOf(question), rating: null, createdAt: at, updatedAt: at };
}

/** Drops what lies beyond the site's newest `answersKeptPerSite` answers, and questions left with none. */
async function forgetOldestAnswers(tx: Transaction, siteId: string) {
  const boundary = await tx.get<{ created_at: string; id: string }>('SELECT created_at, id FROM site_question_answers WHERE site_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?', [
    siteId,
    answersKeptPerSite,
  ]);
  if (!boundary) return;
  await tx.run('DELETE FROM site_question_answers WHERE site_id = ? AND (created_at < ? OR (created_at = ? AND id <= ?))', [siteId, boundary.created_at, boundary.created_at, boundary.id]);
  await tx.run('DELETE FROM site_questions WHERE site_id = ? AND NOT EXISTS (SELECT 1 FROM site_question_answers a WHERE a.question_id = site_questions.id)', [siteId]);
}

export interface AnswerFilter {
  from?: string;
  to?: string;
  questionId?: string;
}

/** A site's answers (with their questions) asked between `from` (included) and `to` (excluded), newest first. */
export async function listSiteAnswers(db: Queryable, siteId: string, filter: AnswerFilter): Promise<SiteAnswerRecord[]> {
  const where = ['a.site_id = ?'];
  const params: unknown[] = [siteId];
  for (const [column, value] of [
    ['a.created_at >= ?', filter.from],
    ['a.created_at < ?', filter.to],
    ['a.question_id = ?', filter.questionId],
  ] as const) {
    if (value === undefined) continue;
    where.push(column);
    params.push(value);
  }
  const rows = await db.all<AnswerRow>(
    `SELECT ${answerColumns} FROM site_question_answers a JOIN site_questions q ON q.id = a.question_id WHERE ${where.join(' AND ')} ORDER BY a.created_at DESC, a.id DESC`,
    params,
  );
  return rows.map(answerOf);
}

export async function findSiteAnswer(db: Queryable, siteId: string, answerId: string): Promise<SiteAnswerRecord | undefined> {
  const row = await db.get<AnswerRow>(`SELECT ${answerColumns} FROM site_question_answers a JOIN site_questions q ON q.id = a.question_id WHERE a.site_id = ? AND a.id = ?`, [siteId, answerId]);
  return row && answerOf(row);
}

export async function findSiteQuestion(db: Queryable, siteId: string, questionId: string): Promise<SiteQuestionRecord | undefined> {
  const row = await db.get<QuestionRow>(`SELECT ${questionColumns} FROM site_questions WHERE site_id = ? AND id = ?`, [siteId, questionId]);
  return row && questionOf(row);
}

/** A reader's rating of an answer (the last one counts): false when the site has no such answer. */
export async function rateSiteAnswer(db: Queryable, siteId: string, answerId: string, rating: 1 | -1): Promise<boolean> {
  const { changes } = await db.run('UPDATE site_question_answers SET rating = ?, updated_at = ? WHERE site_id = ? AND id = ?', [rating, now(), siteId, answerId]);
  return changes === 1;
}

/** What a deleted site leaves behind of its readers' questions: nothing. */
export async function deleteSiteQuestions(db: Queryable, siteId: string): Promise<void> {
  await db.run('DELETE FROM site_question_answers WHERE site_id = ?', [siteId]);
  await db.run('DELETE FROM site_questions WHERE site_id = ?', [siteId]);
}

const questionColumns = 'id, site_id, question, type, created_at';
interface QuestionRow {
  id: string;
  site_id: string;
  question: string;
  type: QuestionType;
  created_at: string;
}
const questionOf = (row: QuestionRow): SiteQuestionRecord => ({ id: row.id, siteId: row.site_id, question: row.question, type: row.type, createdAt: row.created_at });

const answerColumns =
  'a.id, a.site_id, a.input, a.channel, a.answered, a.helpfulness, a.relevance, a.language, a.response, a.sources, a.rating, a.created_at, a.updated_at, q.id AS q_id, q.question AS q_question, q.type AS q_type, q.created_at AS q_created_at';
interface AnswerRow {
  id: string;
  site_id: string;
  input: string;
  channel: AnswerChannel;
  answered: AnswerResolution;
  helpfulness: AnswerHelpfulness;
  relevance: AnswerRelevance;
  language: string;
  response: string;
  sources: string;
  rating: number | null;
  created_at: string;
  updated_at: string;
  q_id: string;
  q_question: string;
  q_type: QuestionType;
  q_created_at: string;
}
function answerOf(row: AnswerRow): SiteAnswerRecord {
  return {
    id: row.id,
    siteId: row.site_id,
    question: { id: row.q_id, siteId: row.site_id, question: row.q_question, type: row.q_type, createdAt: row.q_created_at },
    input: row.input,
    channel: row.channel,
    answered: row.answered,
    helpfulness: row.helpfulness,
    relevance: row.relevance,
    language: row.language,
    response: row.response,
    sources: JSON.parse(row.sources) as AnswerSourceRecord[],
    rating: row.rating === null ? null : Number(row.rating) > 0 ? 1 : -1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
