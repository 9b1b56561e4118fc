/**
 * Misspelt words folded into the organization's own words: a word only one issue uses, five
 * letters or more, that is a word several issues use with one letter dropped ("serch" →
 * "search", "reqest" → "request") or two neighbouring letters swapped ("domian" → "domain").
 * Added and changed letters are left alone: they mostly make other real words ("plain", "plan";
 * "charge", "change"). Found through one-letter deletions (as SymSpell does), so the cost
 * follows the vocabulary, not its square.
 */
export function typoFolding(documentFrequency: Map<string, number>): Map<string, string> {
  const byDeletion = new Map<string, string[]>();
  for (const [term, n] of documentFrequency) {
    if (n < 2 || term.length < 5) continue;
    for (const variant of deletions(term)) byDeletion.set(variant, [...(byDeletion.get(variant) ?? []), term]);
  }
  const folding = new Map<string, string>();
  for (const [term, n] of documentFrequency) {
    if (n !== 1 || term.length < 5) continue;
    const dropped = byDeletion.get(term)?.sort()[0];
    const swapped = deletions(term)
      .flatMap((variant) => byDeletion.get(variant) ?? [])
      .filter((known) => isSwap(term, known))
      .sort()[0];
    const match = dropped ?? swapped;
    if (match) folding.set(term, match);
  }
  return folding;
}

/** Term counts with the folded words counted as the words they stand for. */
export function foldCounts(counts: Record<string, number>, folding: Map<string, string>): Record<string, number> {
  const folded: Record<string, number> = {};
  for (const [term, n] of Object.entries(counts)) {
    const word = folding.get(term) ?? term;
    folded[word] = (folded[word] ?? 0) + n;
  }
  return folded;
}

function deletions(word: string): string[] {
  return Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1));
}

/** Whether `a` is `b` with two neighbouring letters swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((letter, i) => (letter === b[i] ? [] : [i]));
  return differ.length === 2 && differ[1] === differ[0]! + 1 && a[differ[0]!] === b[differ[1]!] && a[differ[1]!] === b[differ[0]!];
}
