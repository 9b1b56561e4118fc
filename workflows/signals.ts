import { defineSignal } from '@temporalio/workflow';

/** Sent to `space-deletion:<id>` by a restore, with the `deletedAt` of the deletion it undid. */
export const spaceRestored = defineSignal<[deletedAt: string]>('spaceRestored');
