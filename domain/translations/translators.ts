import { recordModelUse, tokensOf, type ModelUse } from '../common/chatModel.js';
import { integrations } from '../common/integrations.js';
import { outboundFetch, OutboundFetchError } from '../common/outboundFetch.js';

/**
 * Turns texts of one language into another; same count, same order. Each text is one unit of
 * prose as HTML (domain/translations/markdownText.ts): its tags and their ids come back as they went.
 */
export interface Translator {
  readonly name: string;
  /** `use`: whose AI usage a chat model's calls count against (the other translators use no model). */
  translate(texts: string[], request: { from: string; to: string; guidance: string; use?: ModelUse }): Promise<string[]>;
}

/**
 * Why a translator failed. `transient` ones (429, 5xx, timeouts, network) are worth retrying with
 * backoff; the others (a 4xx, a malformed answer) will fail the same way again.
 */
export class TranslatorError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

/** Most texts a single call carries, and most characters: a page's text goes in as few calls as fit. */
const batchTexts = 100;
const batchChars = 20_000;

export function batches(texts: string[]): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (current.length && (current.length >= batchTexts || chars + text.length > batchChars)) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(text);
    chars += text.length;
  }
  if (current.length) out.push(current);
  return out;
}

/**
 * The translator configured (QUIRE_TRANSLATOR: LibreTranslate or an OpenAI-compatible API), else
 * the pseudo-locale one (for demos: no service needed). Endpoints are the operator's own, so
 * they may be on a private network; the outbound guard's time and size limits still apply.
 */
export function configuredTranslator(): Translator {
  const translator = integrations().translator;
  if (translator.kind === 'libretranslate') return libreTranslate(translator.url, translator.key);
  if (translator.kind === 'openai') return openAI(translator.url, translator.key, translator.model);
  return pseudoLocale;
}

const accents: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú', A: 'Á', E: 'É', I: 'Í', O: 'Ó', U: 'Ú', c: 'ç', n: 'ñ' };

/** Accented letters in guillemets: shows what would be translated, and what passed through, without a service. Tags and entities are left alone. */
export const pseudoLocale: Translator = {
  name: 'pseudo',
  translate: async (texts) =>
    texts.map(
      (text) =>
        `«${text
          .split(/(<[^>]*>|&[#a-zA-Z0-9]+;)/)
          .map((part, index) => (index % 2 ? part : part.replace(/[aeiouAEIOUcn]/g, (letter) => accents[letter]!)))
          .join('')}»`,
    ),
};

async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
  let response;
  try {
    response = await outboundFetch(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers }, allowPrivate: true, totalTimeoutMs: 120_000 });
  } catch (error) {
    if (!(error instanceof OutboundFetchError)) throw error;
    const transient = error.code === 'timeout' || error.code === 'network' || (error.code === 'status' && (error.status === 429 || (error.status ?? 0) >= 500));
    throw new TranslatorError(`The translator at ${new URL(url).host} failed: ${error.message}`, transient);
  }
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new TranslatorError(`The translator at ${new URL(url).host} answered something that is not JSON`, false);
  }
}

/** LibreTranslate's codes where they differ from upstream's translation languages. */
const libreCodes: Record<string, string> = { 'pt-br': 'pt', no: 'nb', yue: 'zh' };

/** A LibreTranslate-compatible endpoint: `POST /translate` with `q` as a list of texts. */
export function libreTranslate(baseUrl: string, apiKey?: string): Translator {
  const url = new URL('translate', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  return {
    name: 'libretranslate',
    async translate(texts, { from, to }) {
      const out: string[] = [];
      for (const batch of batches(texts)) {
        const answer = (await postJson(url, { q: batch, source: libreCodes[from] ?? from, target: libreCodes[to] ?? to, format: 'html', ...(apiKey ? { api_key: apiKey } : {}) })) as {
          translatedText?: unknown;
        };
        const translated = answer.translatedText;
        if (!Array.isArray(translated) || translated.length !== batch.length || !translated.every((text) => typeof text === 'string')) {
          throw new TranslatorError(`LibreTranslate answered ${Array.isArray(translated) ? translated.length : 'no'} texts for ${batch.length}`, false);
        }
        out.push(...(translated as string[]));
      }
      return out;
    },
  };
}

/** An OpenAI-compatible chat-completions endpoint, asked for a JSON array of the translated texts. */
export function openAI(baseUrl: string, apiKey: string | undefined, model: string): Translator {
  const url = new URL('chat/completions', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  return {
    name: 'openai',
    async translate(texts, { from, to, guidance, use }) {
      const out: string[] = [];
      for (const batch of batches(texts)) {
        const system = [
          `You translate documentation from the language with code "${from}" to the language with code "${to}".`,
          'You receive a JSON array of texts. Answer with only a JSON array of their translations: same length, same order.',
          'The texts are HTML: keep every tag and its attributes where it belongs in the translated sentence, and translate only the text.',
          'Keep product names, code, URLs and placeholders as they are.',
          guidance ? `The documentation team's instructions:\n${guidance}` : '',
        ]
          .filter(Boolean)
          .join('\n');
        const answer = (await postJson(
          url,
          {
            model,
            temperature: 0,
            messages: [
              { role: 'system', content: system },
              { role: 'user', content: JSON.stringify(batch) },
            ],
          },
          apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        )) as {
          choices?: Array<{ message?: { content?: unknown } }>;
          usage?: Record<string, unknown>;
        };
        if (use) await recordModelUse(use, tokensOf(answer));
        const content = answer.choices?.[0]?.message?.content;
        let translated: unknown;
        try {
          translated = typeof content === 'string' ? JSON.parse(content.replace(/^```(?:json)?\s*|\s*```$/g, '')) : undefined;
        } catch {
          translated = undefined;
        }
        if (!Array.isArray(translated) || translated.length !== batch.length || !translated.every((text) => typeof text === 'string')) {
          throw new TranslatorError(`The chat model did not answer a JSON array of ${batch.length} texts`, true);
        }
        out.push(...(translated as string[]));
      }
      return out;
    },
  };
}
