/** Consolidation as a task of the worker pool (engine/runtime/workerPool.ts): see planConsolidation in conversations.ts. */
import { consolidate, type IssueToConsolidate } from './consolidation.js';
import { readsAsEnglish } from './language.js';

/** An issue as planConsolidation sends it: with the text its embedding was made from, whose language is told here, off the event loop. */
export type IssueWithText = IssueToConsolidate & { text?: string };

export const consolidateIssues = (issues: IssueWithText[]) => consolidate(issues.map(({ text, ...issue }) => (text === undefined ? issue : { ...issue, english: readsAsEnglish(text) })));
