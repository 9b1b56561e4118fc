import { convertMarkdownToDocument } from '../../engine/index.js';
import { questionTitles, type SectionHit } from '../../storage/search.js';
import type { ContentDeps } from '../common/deps.js';
import { integrations } from '../common/integrations.js';
import { log } from '../common/log.js';
import { modelAnswer, passageOf, quotedAnswer, titleOf } from './compose.js';
import { answerSources, questionWords, type AnswerSource } from './sources.js';

/** An answer to a reader's question, with the pages (and their sections) it comes from. */
export interface Answer {
  markdown: string;
  sources: Array<{ spaceId: string; pageId: string; revision: string; title: string; path: string; sections: string[] }>;
  /** For a quoted answer, each passage with the page and section it comes from (what a site shows). */
  quotes: Array<{ spaceId: string; pageId: string; path: string; title: string; sectionId: string; passage: string }>;
  /** Questions the documentation itself asks (headings ending in "?") among the other sections found. */
  followupQuestions: string[];
  /** How it was written: the best passages quoted, or a chat model from them. */
  method: 'quoted' | 'model';
  /** The share of the question's content words the best section holds (0 when nothing was found, or the question has none). */
  coverage: number;
  /** How many content words the question has: none makes it unclear. */
  words: number;
}

/**
 * Answers a question from these spaces' current content (the caller's to read): with a chat
 * model configured (QUIRE_OPENAI_URL), the model writes it from the best sections and cites
 * them; without one, or when the model fails, the best sections' own sentences are quoted.
 * `keep`: sections the asker may see (a site's unlisted pages are left out); `organizationId`:
 * whose AI usage a model's answer counts against.
 */
export async function answerQuestion(
  deps: Pick<ContentDeps, 'db' | 'repositories'>,
  spaceIds: string[],
  question: string,
  options: { keep?: (hit: SectionHit) => boolean; organizationId?: string } = {},
): Promise<Answer> {
  const { keep, organizationId } = options;
  const sources = await answerSources(deps, spaceIds, question, { limit: 8, ...(keep && { keep }) });
  const model = integrations().chatModel;
  let composed: { markdown: string; used: AnswerSource[] } | undefined;
  if (model) {
    const use = organizationId ? { db: deps.db, organizationId, feature: 'ask' as const } : undefined;
    composed = await modelAnswer(question, sources, model, use).catch((error: Error) => {
      log.warn('the chat model did not answer: quoting the documentation instead', { error: error.message });
      return undefined;
    });
  }
  const method = composed ? 'model' : 'quoted';
  composed ??= quotedAnswer(question, sources);
  const used = new Set(composed.used);
  const followupQuestions = [...new Set(sources.filter((source) => !used.has(source) && source.hit.sectionTitle.trim().endsWith('?')).map((source) => source.hit.sectionTitle.trim()))].slice(0, 3);
  const quotes =
    method === 'quoted'
      ? composed.used.map((source) => ({
          spaceId: source.hit.spaceId,
          pageId: source.hit.pageId,
          path: source.hit.pagePath,
          title: titleOf(source),
          sectionId: source.hit.sectionId,
          passage: passageOf(source.hit.body, question),
        }))
      : [];
  const words = questionWords(question).length;
  const coverage = words && sources[0] ? Math.min(1, sources[0].matched / words) : 0;
  return { markdown: composed.markdown, sources: sourcesByPage(composed.used), quotes, followupQuestions, method, coverage, words };
}

function sourcesByPage(used: AnswerSource[]): Answer['sources'] {
  const pages = new Map<string, Answer['sources'][number]>();
  for (const source of used) {
    const key = `${source.hit.spaceId}:${source.hit.pageId}`;
    const page = pages.get(key) ?? { spaceId: source.hit.spaceId, pageId: source.hit.pageId, revision: source.revision, title: source.hit.pageTitle, path: source.hit.pagePath, sections: [] };
    if (!page.sections.includes(source.hit.sectionId)) page.sections.push(source.hit.sectionId);
    pages.set(key, page);
  }
  return [...pages.values()];
}

/** Questions to offer a reader: the documentation's own headings phrased as questions (at most five). */
export async function recommendedQuestions(deps: Pick<ContentDeps, 'db'>, spaceIds: string[]): Promise<string[]> {
  return [...new Set((await questionTitles(deps.db, spaceIds, 10)).map((found) => found.title.trim()))].slice(0, 5);
}

/** The answer's text as an upstream JSON Document (its `format=document` form). */
export function answerDocument(answer: Answer) {
  return convertMarkdownToDocument(answer.markdown, 'An answer');
}
