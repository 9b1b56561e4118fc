import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { RevalidationSubject } from '../domain/common/ports.js';

const { revalidateRenderer } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  // A renderer that is down is tried again for about an hour, then given up on: its caches expire anyway.
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes', maximumAttempts: 12 },
});

/** Tells the site renderer which cache tags a change of published content made stale (`renderer-revalidation:<site|space>:<id>:<id>`). */
export async function rendererRevalidation(subject: RevalidationSubject): Promise<{ tags: string[] }> {
  return revalidateRenderer(subject);
}
