import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';

const { pruneAuditEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '30 seconds', maximumInterval: '10 minutes', maximumAttempts: 3 },
});

export interface AuditRetentionInput {
  /** Events older than this are removed. */
  retentionMs: number;
}

/** Run by the schedule `audit-retention:<task queue>`: the audit log forgets what is past its retention. */
export async function auditRetention(input: AuditRetentionInput): Promise<{ removed: number }> {
  return { removed: await pruneAuditEvents(input) };
}
