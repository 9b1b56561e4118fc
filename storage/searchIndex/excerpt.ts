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
  const wanted = words.map(folded);
  const prefix = wanted.pop() ?? '';
  return nonAscii.test(body) ? anyExcerpt(body, wanted, prefix) : asciiExcerpt(body, wanted, prefix);
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

/**
 * ASCII text (most of it, and the common case): the first match found by searching the lowercased
 * body, then words counted outwards from it — no pass over the whole body word by word.
 */
function asciiExcerpt(body: string, whole: string[], prefix: string): string {
  const lower = body.toLowerCase();
  const wordAt = (at: number) => at < lower.length && isWordCode(lower.charCodeAt(at));
  const startsWord = (at: number) => at === 0 || !wordAt(at - 1);
  const firstAt = (word: string, isWhole: boolean) => {
    if (word === '' || nonAscii.test(word)) return -1;
    for (let at = lower.indexOf(word); at !== -1; at = lower.indexOf(word, at + 1)) if (startsWord(at) && !(isWhole && wordAt(at + word.length))) return at;
    return -1;
  };
  /** Where the word before `at` starts, or -1 when none is. */
  const previousWord = (at: number) => {
    let cursor = at - 1;
    while (cursor >= 0 && !wordAt(cursor)) cursor -= 1;
    if (cursor < 0) return -1;
    while (cursor > 0 && wordAt(cursor - 1)) cursor -= 1;
    return cursor;
  };
  const wordsFrom = (from: number, count: number): { end: number; taken: number } => {
    let at = from;
    let end = from;
    let taken = 0;
    while (taken < count) {
      while (at < lower.length && !wordAt(at)) at += 1;
      if (at >= lower.length) break;
      while (wordAt(at)) at += 1;
      end = at;
      taken += 1;
    }
    return { end, taken };
  };
  const hits = [firstAt(prefix, false), ...whole.map((word) => firstAt(word, true))].filter((at) => at !== -1);
  let start = hits.length === 0 ? 0 : Math.min(...hits);
  // Back over up to `leadInWords` words before the match; then forward over `excerptWords` words,
  // and where fewer follow the match than that, back over more of them before it.
  const stepBack = () => {
    const before = previousWord(start);
    if (before === -1) return false;
    start = before;
    return true;
  };
  for (let back = 0; back < leadInWords && stepBack(); back += 1);
  const { end, taken } = wordsFrom(start, excerptWords);
  for (let more = taken; more < excerptWords && stepBack(); more += 1);
  while (start < lower.length && !wordAt(start)) start += 1;
  if (end <= start) return '';
  let firstWord = 0;
  while (firstWord < lower.length && !wordAt(firstWord)) firstWord += 1;
  const goesOn = wordsFrom(end, 1).taken > 0;
  return `${start > firstWord ? '…' : ''}${body.slice(start, end)}${goesOn ? '…' : ''}`;
}
