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
 * sections a search returns, rather than by FTS5 for every section it matched; it reads the body
 * only as far as the excerpt ends.
 */
export function excerpt(body: string, words: string[]): string {
  const wanted = words.map(folded);
  const prefix = wanted.pop() ?? '';
  const matches = (word: string) => word.startsWith(prefix) || wanted.includes(word);
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
    if (hit === -1 && matches(folded(found[0]))) hit = starts.length - 1;
  }
  if (starts.length === 0) return '';
  const first = hit === -1 ? 0 : Math.max(0, Math.min(hit - leadInWords, starts.length - excerptWords));
  const last = Math.min(starts.length, first + excerptWords) - 1;
  const goesOn = more || last < starts.length - 1;
  return `${first > 0 ? '…' : ''}${body.slice(starts[first], ends[last])}${goesOn ? '…' : ''}`;
}
