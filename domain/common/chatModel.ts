import { addAIUsage } from '../../storage/aiUsage.js';
import type { Queryable } from '../../storage/db.js';
import { log } from './log.js';
import { outboundFetch } from './outboundFetch.js';

/** An OpenAI-compatible chat-completions endpoint (QUIRE_OPENAI_*). */
export interface ChatEndpoint {
  url: string;
  key?: string;
  model: string;
}

/** What Quire features ask the model for, as getOrganizationAIUsage names them. */
export type AIFeature = 'ask' | 'conversations' | 'translations';

/** Whose call it is: counted against the organization's AI usage under the feature. */
export interface ModelUse {
  db: Queryable;
  organizationId: string;
  feature: AIFeature;
}

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string };

/** The tokens an answer says it used (`usage.total_tokens`, else its prompt and completion tokens), 0 when it says nothing. */
export function tokensOf(answer: { usage?: { total_tokens?: unknown; prompt_tokens?: unknown; completion_tokens?: unknown } }): number {
  const usage = answer.usage;
  const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);
  return count(usage?.total_tokens) || count(usage?.prompt_tokens) + count(usage?.completion_tokens);
}

/** Counts one call of the model for the organization (UTC day); a failure to count is logged, never the caller's. */
export async function recordModelUse(use: ModelUse, tokens: number): Promise<void> {
  await addAIUsage(use.db, use.organizationId, new Date().toISOString().slice(0, 10), use.feature, tokens).catch((error: Error) =>
    log.warn('a chat model call could not be counted', { organizationId: use.organizationId, feature: use.feature, error: error.message }),
  );
}

/**
 * Asks the model (temperature 0) and answers its message's text; throws when the endpoint fails or
 * answers no text. The call is counted for `use` once the model answered.
 */
export async function chatCompletion(endpoint: ChatEndpoint, messages: ChatMessage[], options: { timeoutMs: number; use?: ModelUse }): Promise<string> {
  const url = new URL('chat/completions', endpoint.url.endsWith('/') ? endpoint.url : `${endpoint.url}/`).toString();
  const response = await outboundFetch(url, {
    method: 'POST',
    body: JSON.stringify({ model: endpoint.model, temperature: 0, messages }),
    headers: { 'content-type': 'application/json', ...(endpoint.key ? { authorization: `Bearer ${endpoint.key}` } : {}) },
    allowPrivate: true,
    totalTimeoutMs: options.timeoutMs,
  });
  const answer = JSON.parse(response.body.toString('utf8')) as { choices?: Array<{ message?: { content?: unknown } }>; usage?: Record<string, unknown> };
  if (options.use) await recordModelUse(options.use, tokensOf(answer));
  const content = answer.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new Error('The chat model answered no text');
  return content;
}
