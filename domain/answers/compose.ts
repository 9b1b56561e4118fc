import { chatCompletion, type ChatEndpoint, type ModelUse } from '../common/chatModel.js';
import { questionWords, type AnswerSource } from './sources.js';

/** How many sections an answer quotes (extractive) or gives the model. */
export const sourcesPerAnswer = { quoted: 3, modelled: 5 };

/**
 * The sentences of a section that say most about the question: at most two, in the section's
 * order, each cut at 300 characters.
 */
export function passageOf(body: string, question: string): string {
  const words = questionWords(question);
  const sentences = body
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  const scored = sentences.map((sentence, index) => {
    const lower = sentence.toLowerCase();
    return { index, sentence, score: words.filter((word) => lower.includes(word)).length };
  });
  const chosen = scored
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, 2)
    .sort((a, b) => a.index - b.index);
  const picked = chosen.length > 0 ? chosen : scored.slice(0, 1);
  return picked.map((entry) => (entry.sentence.length > 300 ? `${entry.sentence.slice(0, 299).trimEnd()}…` : entry.sentence)).join(' ');
}

/** Plain text made safe to quote in markdown: its markdown characters escaped. */
const escaped = (text: string) => text.replace(/[\\`*_{}[\]<>#|~]/g, (char) => `\\${char}`);

/** A source's heading: its page, and its section when that isn't the page's own title. */
export const titleOf = (source: AnswerSource) =>
  source.hit.sectionTitle && source.hit.sectionTitle !== source.hit.pageTitle ? `${source.hit.pageTitle} › ${source.hit.sectionTitle}` : source.hit.pageTitle;

/** What an answer says when the documentation has nothing on the question: never a guess. */
export const nothingFound = 'The documentation doesn’t say: no page matches this question.';

/**
 * An extractive answer: the best sections' own sentences, quoted, each under the page it comes
 * from. Nothing is written that the documentation doesn't say.
 */
export function quotedAnswer(question: string, sources: AnswerSource[]): { markdown: string; used: AnswerSource[] } {
  const used = sources.slice(0, sourcesPerAnswer.quoted);
  if (used.length === 0) return { markdown: nothingFound, used };
  const parts = used.map((source) => `**${escaped(titleOf(source))}**\n\n> ${escaped(passageOf(source.hit.body, question).replace(/\n/g, ' '))}`);
  return { markdown: ['What the documentation says:', ...parts].join('\n\n'), used };
}

const instructions = [
  'You answer questions about a product from its documentation.',
  'Use only the numbered sources given; cite each fact with its source number in brackets, like [1].',
  'If the sources do not answer the question, say that the documentation does not say, and nothing else.',
  'Answer in Markdown, briefly.',
].join(' ');

/**
 * An answer an OpenAI-compatible chat model writes from the sources (QUIRE_OPENAI_*): the sources
 * it cites are the answer's; a model that cites none is answered with all it was given.
 */
export async function modelAnswer(question: string, sources: AnswerSource[], endpoint: ChatEndpoint, use?: ModelUse): Promise<{ markdown: string; used: AnswerSource[] }> {
  const given = sources.slice(0, sourcesPerAnswer.modelled);
  if (given.length === 0) return { markdown: nothingFound, used: [] };
  const numbered = given.map((source, index) => `[${index + 1}] ${titleOf(source)}\n${source.hit.body.slice(0, 1500)}`).join('\n\n');
  const content = await chatCompletion(
    endpoint,
    [
      { role: 'system', content: instructions },
      { role: 'user', content: `Sources:\n\n${numbered}\n\nQuestion: ${question}` },
    ],
    { timeoutMs: 60_000, ...(use ? { use } : {}) },
  );
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]) - 1));
  const used = given.filter((_source, index) => cited.has(index));
  return { markdown: content.trim(), used: used.length > 0 ? used : given };
}
