import { createRequire } from 'node:module';
import type winkNLP from 'wink-nlp';
import type { ItemSentence, ItemToken, WinkMethods, Model } from 'wink-nlp';

const require = createRequire(import.meta.url);
let loaded: WinkMethods | undefined;
/**
 * wink-nlp with its English model, loaded on first use (about 20 ms): the model takes about 26 MB
 * once loaded, which a process that never reads a conversation (most API processes) shouldn't pay.
 */
// Both are CommonJS: `require` returns what their type declarations call the default export.
const nlp = () => (loaded ??= (require('wink-nlp') as typeof winkNLP)(require('wink-eng-lite-web-model') as Model));

export interface Sentence {
  text: string;
  negated: boolean;
  question: boolean;
  /** Lower-case word forms, for matching cue words. */
  words: string[];
  /** It opens as an English question does, with or without its question mark: an auxiliary, then its subject ("can guests…", "does the export…"; not "will do"). */
  inverted: boolean;
}

/** What can follow the auxiliary that opens a question: its subject. */
const subjectTags = new Set(['PRON', 'NOUN', 'PROPN', 'DET', 'NUM']);

export function sentencesOf(text: string): Sentence[] {
  const its = nlp().its;
  const sentences: Sentence[] = [];
  nlp()
    .readDoc(text)
    .sentences()
    .each((sentence: ItemSentence) => {
      const words = sentence.tokens().out(its.normal) as string[];
      // Greetings and punctuation before it ("Hi, can we…") don't count.
      const tags = (sentence.tokens().out(its.pos) as string[]).filter((tag) => tag !== 'INTJ' && tag !== 'PUNCT');
      const raw = sentence.out().trim();
      const inverted = tags[0] === 'AUX' && subjectTags.has(tags[1] ?? '');
      sentences.push({ text: raw, negated: Boolean(sentence.out(its.negationFlag)), question: raw.endsWith('?'), words, inverted });
    });
  return sentences;
}

/** Words that say nothing about the topic of a support request, beyond the model's stop words. */
const generic = new Set(
  'hi hello hey thank thanks pleas help team question issu problem way doc document documentat know want need tri use work get make see look find like would could also just still anyon someon someth thing one set seem now day week yesterday today ago again sure ok okay email phone card token'.split(' '),
);

export interface Terms {
  /** Stem → occurrences. */
  counts: Record<string, number>;
  /** Stem → the word it was first seen as, for labels people can read. */
  surface: Record<string, string>;
}

/** The content words of a text as stems, with the word each stem stands for. */
export function termsOf(text: string): Terms {
  const its = nlp().its;
  const doc = nlp().readDoc(text);
  const counts: Record<string, number> = {};
  const surface: Record<string, string> = {};
  doc.tokens().each((token: ItemToken) => {
    if (token.out(its.type) !== 'word' || token.out(its.stopWordFlag)) return;
    const normal = token.out(its.normal) as string;
    if (normal.length < 2 || /^\d/.test(normal)) return;
    // wink types its.stem as needing model add-ons; the model passed to winkNLP carries them.
    const stem = token.out(its.stem as unknown as typeof its.normal);
    if (generic.has(stem) || generic.has(normal)) return;
    counts[stem] = (counts[stem] ?? 0) + 1;
    surface[stem] ??= normal;
  });
  return { counts, surface };
}

/** Below this many words a text is taken as English: too few to tell, and short notes read alike in any language. */
const wordsToTell = 12;
/** English prose runs about 40 % stop words of wink's English list; the other languages' under 8 %. */
const englishStopWordShare = 0.15;

/**
 * Whether a text reads as English, by the share of its words that are English stop words. On the
 * labelled sets, the issues in French, German, Spanish, Portuguese and Italian have 0–7 %, the
 * English ones of a dozen words or more 25 % and up.
 */
export function readsAsEnglish(text: string): boolean {
  const its = nlp().its;
  let words = 0;
  let stopWords = 0;
  nlp()
    .readDoc(text)
    .tokens()
    .each((token: ItemToken) => {
      if (token.out(its.type) !== 'word') return;
      words += 1;
      if (token.out(its.stopWordFlag)) stopWords += 1;
    });
  return words < wordsToTell || stopWords / words >= englishStopWordShare;
}
