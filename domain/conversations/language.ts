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
  /** It opens as an English question does, with or without its question mark: an auxiliary, then its subject ("can guests…", "did you…"; not "will do", "have a nice day"). */
  inverted: boolean;
}

const questionAuxiliaries = new Set(['is', 'are', 'was', 'were', 'can', 'could', 'do', 'does', 'did', 'should', 'will', 'would', 'may', 'might', 'has', 'have']);
const subjectPronouns = new Set(['i', 'we', 'you', 'they', 'he', 'she', 'it', 'there', 'anyone', 'anybody', 'someone', 'somebody']);
/** The auxiliaries a noun subject can follow in a question ("can guests…", "does the export…"): not have, do or did, which open courtesies and reports as often ("have a nice day", "did that, all good"). */
const nounSubjectAuxiliaries = new Set(['is', 'are', 'can', 'could', 'does', 'should', 'will', 'would']);
const nounTags = new Set(['NOUN', 'PROPN', 'DET', 'NUM']);

export function sentencesOf(text: string): Sentence[] {
  const its = nlp().its;
  const sentences: Sentence[] = [];
  nlp()
    .readDoc(text)
    .sentences()
    .each((sentence: ItemSentence) => {
      const words = sentence.tokens().out(its.normal) as string[];
      // Greetings and punctuation before it ("Hi, can we…") don't count.
      const tags = sentence.tokens().out(its.pos) as string[];
      const opening = words.flatMap((word, i) => (tags[i] === 'INTJ' || tags[i] === 'PUNCT' ? [] : [{ word, tag: tags[i]! }])).slice(0, 2);
      const [auxiliary, subject] = opening;
      const raw = sentence.out().trim();
      const inverted =
        auxiliary !== undefined &&
        subject !== undefined &&
        questionAuxiliaries.has(auxiliary.word) &&
        (subjectPronouns.has(subject.word) || (nounSubjectAuxiliaries.has(auxiliary.word) && nounTags.has(subject.tag)));
      sentences.push({ text: raw, negated: Boolean(sentence.out(its.negationFlag)), question: raw.endsWith('?'), words, inverted });
    });
  return sentences;
}

/** Words that say nothing about the topic of a support request, beyond the model's stop words. */
const generic = new Set(
  'hi hello hey thank thanks pleas help team question issu problem way doc document documentat know want need tri use work get make see look find like would could also just still anyon someon someth thing one set seem now day week yesterday today ago again sure ok okay email phone card token'.split(
    ' ',
  ),
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
let stopWordLists: Array<[string, Set<string>]> | undefined;
/** The stop words of 50-odd languages (stopwords-iso, MIT), loaded on first use. */
const stopWordsByLanguage = () => (stopWordLists ??= Object.entries(require('stopwords-iso') as Record<string, string[]>).map(([language, words]) => [language, new Set(words)]));
/** A text's words, lower-cased, an apostrophe kept inside one ("n'est", "don't"). */
const lowerCaseWords = (text: string) => text.toLowerCase().match(/\p{L}+(?:['’]\p{L}+)?/gu) ?? [];

/**
 * Whether a text reads as English: it does unless another language's stop words cover more of its
 * words than English's do (stopwords-iso's lists: the words that glue a sentence, which a language
 * uses whatever the topic). On the labelled sets, the issues in French, German, Spanish,
 * Portuguese and Italian come out as theirs; clipped English reports ("PDF export broken: code
 * blocks cut off, last lines missing") as English, which the share of English stop words alone
 * did not tell.
 */
export function readsAsEnglish(text: string): boolean {
  const words = lowerCaseWords(text);
  if (words.length < wordsToTell) return true;
  let english = 0;
  let other = 0;
  for (const [language, stopWords] of stopWordsByLanguage()) {
    const covered = words.filter((word) => stopWords.has(word)).length;
    if (language === 'en') english = covered;
    else other = Math.max(other, covered);
  }
  return english >= other;
}

export type Language = 'english' | 'other' | 'unknown';
let distinctiveStopWords: Array<{ english: Set<string>; other: Set<string> }> | undefined;
/** For each language but English, the stop words English's list has and its own lacks, and the reverse. */
const distinctiveStopWordLists = () =>
  (distinctiveStopWords ??= (() => {
    const english = stopWordsByLanguage().find(([language]) => language === 'en')![1];
    return stopWordsByLanguage()
      .filter(([language]) => language !== 'en')
      .map(([, stopWords]) => ({ english: new Set([...english].filter((word) => !stopWords.has(word))), other: new Set([...stopWords].filter((word) => !english.has(word))) }));
  })());

/**
 * Which language a short text is in, English or another, by the stop words that tell the two
 * apart: English's list (stopwords-iso) holds "non", "ne", "la" and "de" too, so for each other
 * language only the words one list has and the other lacks count. Another language when, for some
 * language, its own words outnumber English's own ("la page ne se charge pas": "pas"); English when
 * English's own words outnumber every other language's ("thanks Mai, that did it"); unknown when
 * they tie with one ("non funziona", "Omaha, NE": no such word). Any length.
 */
export function languageOf(text: string): Language {
  const words = lowerCaseWords(text);
  let english = true;
  for (const lists of distinctiveStopWordLists()) {
    const ownEnglish = words.filter((word) => lists.english.has(word)).length;
    const ownOther = words.filter((word) => lists.other.has(word)).length;
    if (ownOther > ownEnglish) return 'other';
    if (ownOther === ownEnglish) english = false;
  }
  return english ? 'english' : 'unknown';
}
