import { termVector, type TermVector } from './clustering.js';
import type { ConversationText, ExtractedIssue } from './extractIssues.js';
import { termsOf } from './language.js';
import { plainTexts } from './plainText.js';

export interface IssueTerms {
  /** Stem → occurrences. */
  counts: Record<string, number>;
  /** Stem → the word it was first seen as. */
  surface: Record<string, string>;
  vector: TermVector;
}

/** The words an issue is clustered by: the subject and what the user said (local issues), or the issue's own words (a model's). */
export function issueTerms(conversation: ConversationText, issue: ExtractedIssue, local: boolean): IssueTerms {
  const said = local ? plainTexts(conversation.parts.filter((part) => part.role === 'user').map((part) => part.body)) : [issue.title, issue.summary];
  const terms = termsOf([conversation.subject ?? '', ...said].join('\n'));
  return { ...terms, vector: termVector(terms.counts) };
}
