/** How many words an excerpt shows, as FTS5's snippet() was asked for. */
const excerptWords = 32;
/** How many words come before the first match, where the body has them. */
const leadInWords = 4;

const nonAscii = /[^\x00-\x7f]/;
/** A word as the index compares it: case and accents folded (unicode61 with remove_diacritics). */
const folded = (word: string) => (nonAscii.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word).toLowerCase();

/**
 * `excerptWords` words of `body` from a little before its first match (a query word whole, or the
 * last one as a prefix, as the search matched them), `…` where the body goes on. Made for the few
 * sections a search returns, rather than by FTS5 for every section it matched.
 */
export function excerpt(body: string, words: string[]): string {
  return excerpter(words)(body);
}

/** excerpt() for many bodies and the same words: the words folded once. */
export function excerpter(words: string[]): (body: string) => string {
  const wanted = words.map(folded);
  const prefix = wanted.pop() ?? '';
  // Words with other characters than ASCII are never found in ASCII text.
  const asciiWhole = wanted.filter((word) => word !== '' && !nonAscii.test(word));
  const asciiPrefix = prefix !== '' && !nonAscii.test(prefix) ? prefix : '';
  return (body) => (nonAscii.test(body) ? anyExcerpt(body, wanted, prefix) : asciiExcerpt(body, asciiWhole, asciiPrefix));
}

/** Any text: its words found one by one, only as far as the excerpt ends. */
function anyExcerpt(body: string, whole: string[], prefix: string): string {
  const pattern = /[\p{L}\p{N}_]+/gu;
  const starts: number[] = [];
  const ends: number[] = [];
  let hit = -1;
  let more = false;
  for (let found = pattern.exec(body); found; found = pattern.exec(body)) {
    if (hit !== -1 && starts.length >= Math.max(hit - leadInWords, 0) + excerptWords) {
      more = true;
      break;
    }
    starts.push(found.index);
    ends.push(found.index + found[0].length);
    const word = folded(found[0]);
    if (hit === -1 && (word.startsWith(prefix) || whole.includes(word))) hit = starts.length - 1;
  }
  if (starts.length === 0) return '';
  const first = hit === -1 ? 0 : Math.max(0, Math.min(hit - leadInWords, starts.length - excerptWords));
  const last = Math.min(starts.length, first + excerptWords) - 1;
  return `${first > 0 ? '…' : ''}${body.slice(starts[first], ends[last])}${more || last < starts.length - 1 ? '…' : ''}`;
}

const isWordCode = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
const wordAt = (text: string, at: number) => at < text.length && isWordCode(text.charCodeAt(at));

/** Where `word` first starts a word of `lower` (and, `whole`, ends one too); -1 when nowhere. */
function firstAt(lower: string, word: string, whole: boolean): number {
  for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) {
    if ((at === 0 || !wordAt(lower, at - 1)) && !(whole && wordAt(lower, at + word.length))) return at;
  }
  return -1;
}

/** Where the word before `at` starts, or -1 when none is. */
function previousWord(text: string, at: number): number {
  let cursor = at - 1;
  while (cursor >= 0 && !wordAt(text, cursor)) cursor -= 1;
  if (cursor < 0) return -1;
  while (cursor > 0 && wordAt(text, cursor - 1)) cursor -= 1;
  return cursor;
}

/** Where `count` words from `from` end (`from` itself when none follows), and how many there were. */
function wordsFrom(text: string, from: number, count: number): { end: number; taken: number } {
  let at = from;
  let end = from;
  let taken = 0;
  while (taken < count) {
    while (at < text.length && !wordAt(text, at)) at += 1;
    if (at >= text.length) break;
    while (wordAt(text, at)) at += 1;
    end = at;
    taken += 1;
  }
  return { end, taken };
}

/**
 * ASCII text (most of it, and the common case): the first match found by searching the lowercased
 * body, then words counted outwards from it — no pass over the whole body word by word. `whole`
 * and `prefix` are ASCII (or empty: nothing to find).
 */
function asciiExcerpt(body: string, whole: string[], prefix: string): string {
  // Case folding keeps ASCII positions, and word characters are the same letters in either case.
  const lower = body.toLowerCase();
  let start = prefix === '' ? -1 : firstAt(lower, prefix, false);
  for (const word of whole) {
    const at = firstAt(lower, word, true);
    if (at !== -1 && (start === -1 || at < start)) start = at;
  }
  if (start === -1) start = 0;
  // Back over up to `leadInWords` words before the match; then forward over `excerptWords` words,
  // and where fewer follow the match than that, back over more of them before it.
  const stepBack = (steps: number) => {
    for (let step = 0; step < steps; step += 1) {
      const before = previousWord(body, start);
      if (before === -1) return;
      start = before;
    }
  };
  stepBack(leadInWords);
  const { end, taken } = wordsFrom(body, start, excerptWords);
  stepBack(excerptWords - taken);
  while (start < body.length && !wordAt(body, start)) start += 1;
  if (end <= start) return '';
  let firstWord = 0;
  while (firstWord < body.length && !wordAt(body, firstWord)) firstWord += 1;
  const goesOn = wordsFrom(body, end, 1).taken > 0;
  return `${start > firstWord ? '…' : ''}${body.slice(start, end)}${goesOn ? '…' : ''}`;
}
