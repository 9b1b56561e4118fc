import { similarity, type TermVector } from './clustering.js';

export interface ClusterLabel {
  label: string;
  summary: string;
  icon: string;
}

/** Icons for the words a label is made of, first match wins; a question mark otherwise. */
const icons: Array<[RegExp, string]> = [
  [/^(sso|saml|login|log|sign|password|okta|auth|authent|identity)/, 'lock'],
  [/^(bill|invoic|payment|refund|plan|price|pricing|subscript|charg|vat|seat)/, 'credit-card'],
  [/^(api|token|endpoint|request|rate|401|403|429)/, 'code'],
  [/^(domain|dns|cname|ssl|certif|https|subdomain)/, 'globe'],
  [/^(git|github|gitlab|sync|repositori|repo|branch|commit)/, 'code-branch'],
  [/^(search|index|result|rank)/, 'magnifying-glass'],
  [/^(pdf|export|print)/, 'file-pdf'],
  [/^(member|invit|role|team|permiss|admin|guest|access)/, 'users'],
];

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * A cluster's label (its three most characteristic words: centroid weight times rarity), the
 * summary (the member issue nearest the centroid, quoted, and the counts) and an icon.
 */
export function labelCluster(
  centroid: TermVector,
  members: Array<{ title: string; vector: TermVector }>,
  counts: { issues: number; conversations: number },
  idf: (term: string) => number,
  surface: (term: string) => string,
): ClusterLabel {
  const terms = Object.entries(centroid)
    .map(([term, weight]) => ({ term, score: weight * idf(term) }))
    .sort((a, b) => b.score - a.score || a.term.localeCompare(b.term))
    .slice(0, 3)
    .map(({ term }) => term);
  const words = terms.map(surface);
  const representative = members.reduce<{ title: string; score: number } | undefined>((best, member) => {
    const score = similarity(member.vector, centroid, idf);
    return !best || score > best.score ? { title: member.title, score } : best;
  }, undefined);
  const others = counts.issues - 1;
  const summary = `"${representative?.title ?? ''}"${others > 0 ? ` and ${others} similar issue${others === 1 ? '' : 's'}` : ''} from ${counts.conversations} conversation${counts.conversations === 1 ? '' : 's'}.`;
  const icon = terms.map((term) => icons.find(([pattern]) => pattern.test(term))?.[1]).find(Boolean) ?? 'circle-question';
  return { label: capitalized(words.join(', ')), summary, icon };
}
