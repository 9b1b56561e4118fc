import { Ajv } from 'ajv';
import { integrations } from '../common/integrations.js';
import { chatCompletion, type ChatEndpoint, type ModelUse } from '../common/chatModel.js';
import type { ConversationText, ExtractedIssue } from './extractIssues.js';
import { termsOf } from './language.js';
import { plainText } from './plainText.js';

/** The chat model configured (the QUIRE_OPENAI_* settings translations use), if any. */
export const configuredModel = (): { url: string; key?: string; model: string } | undefined => integrations().chatModel;

const answerSchema = {
  type: 'object',
  properties: {
    issues: {
      type: 'array',
      maxItems: 5,
      items: {
        type: 'object',
        properties: { title: { type: 'string', minLength: 3, maxLength: 200 }, summary: { type: 'string', minLength: 3, maxLength: 1500 } },
        required: ['title', 'summary'],
      },
    },
  },
  required: ['issues'],
} as const;
// Compiled on the first model answer, not at every start.
let answerValidator: ReturnType<typeof compileAnswerSchema> | undefined;
const compileAnswerSchema = () => new Ajv().compile<{ issues: ExtractedIssue[] }>(answerSchema);
const validAnswer = (answer: unknown): answer is { issues: ExtractedIssue[] } => (answerValidator ??= compileAnswerSchema())(answer);

const instructions = [
  'You read a customer support conversation and list the documentation issues it shows:',
  'what the user could not find or could not do, that better documentation would answer.',
  'Answer with only JSON: {"issues": [{"title": "...", "summary": "..."}]}. A title is one short sentence;',
  'a summary says what the user tried and what was missing, using only facts from the conversation.',
  'Answer {"issues": []} for thanks, spam, or a problem the user solved alone.',
].join(' ');

/**
 * The issues a chat model finds in the conversation, or an error when the endpoint fails or
 * answers something else than the asked shape (the caller then extracts locally).
 */
export async function extractIssuesWithModel(conversation: ConversationText, endpoint: ChatEndpoint, use?: ModelUse): Promise<ExtractedIssue[]> {
  const transcript = [conversation.subject ? `Subject: ${conversation.subject}` : '', ...conversation.parts.map((part) => `${part.role}: ${plainText(part.body)}`)].filter(Boolean).join('\n');
  const content = await chatCompletion(
    endpoint,
    [
      { role: 'system', content: instructions },
      { role: 'user', content: transcript },
    ],
    { timeoutMs: 30_000, ...(use ? { use } : {}) },
  );
  const answer: unknown = JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, ''));
  if (!validAnswer(answer)) throw new Error(`The chat model's answer is not {"issues": [{title, summary}]}`);
  // Grounded or dropped: most of an issue's words must be the conversation's own.
  const said = new Set(Object.keys(termsOf(transcript).counts));
  return answer.issues
    .map((issue) => ({ title: issue.title.trim(), summary: issue.summary.trim() }))
    .filter((issue) => {
      const words = Object.keys(termsOf(`${issue.title}\n${issue.summary}`).counts);
      return words.length > 0 && words.filter((word) => said.has(word)).length / words.length >= 0.5;
    });
}
