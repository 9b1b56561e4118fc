/** Consolidation as a task of the worker pool (engine/workerPool.ts): see planConsolidation in conversations.ts. */
import { consolidate, type IssueToConsolidate } from './consolidation.js';

export const consolidateIssues = (issues: IssueToConsolidate[]) => consolidate(issues);
