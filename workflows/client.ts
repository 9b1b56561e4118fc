import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  ScheduleAlreadyRunning,
  ScheduleOverlapPolicy,
  type ScheduleOptionsStartWorkflowAction,
  type Workflow,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
} from '@temporalio/client';
import { storageTaskQueue, type TemporalSettings } from './settings.js';
import { spaceRestored } from './signals.js';
import type { spaceDeletion } from './spaceDeletion.workflow.js';
import type { Jobs, RevalidationSubject, SpaceDeletionInput } from '../domain/common/ports.js';
import type { rendererRevalidation } from './rendererRevalidation.workflow.js';
import { openAPISourceChanged, type openapiProcessing } from './openapiProcessing.workflow.js';
import type { translationRun } from './translationRun.workflow.js';
import type { RepositoryMaintenanceInput } from './repositoryMaintenance.workflow.js';
import type { AuditRetentionInput } from './auditRetention.workflow.js';
import type { pdfExport } from './pdfExport.workflow.js';
import type { contentImport } from './contentImport.workflow.js';
import type { ImportJobInput } from '../domain/common/jobs.js';
import { conversationsIngested, type conversationProcessing } from './conversationProcessing.workflow.js';
import { pdfOptions, type PdfExportInput } from '../domain/pdf/index.js';
import type { GitSyncJob } from '../domain/git/index.js';
import type { gitSync } from './gitSync.workflow.js';
import type { spaceMove } from './spaceMove.workflow.js';
import type { SpaceMove } from '../domain/storages/index.js';
import { randomUUID } from 'node:crypto';
import { hooksOnlyWhileRunning } from './runtime/asyncContextHooks.js';

/** The job service can't be reached: the API answers 503 and changes nothing. */
export class JobsUnavailableError extends Error {
  readonly code = 'jobs_unavailable';
}

export const spaceDeletionJobId = (spaceId: string) => `space-deletion:${spaceId}`;
export const openAPIJobId = (organizationId: string, slug: string) => `openapi:${organizationId}:${slug}`;
export const pdfJobId = (input: PdfExportInput) => `pdf:${input.spaceId}:${input.changeRequestId ?? 'space'}:${input.revision}:${pdfOptions(input)}`;
export const conversationsJobId = (organizationId: string) => `conversations:${organizationId}`;
export const consolidationScheduleId = (taskQueue: string) => `conversations-consolidation:${taskQueue}`;
export const gitSyncJobId = (job: GitSyncJob, id: string) => `git-sync:${job.spaceId}:${job.direction}:${id}`;
export const maintenanceScheduleId = (taskQueue: string) => `repository-maintenance:${taskQueue}`;
export const openAPIRefreshScheduleId = (taskQueue: string) => `openapi-refresh:${taskQueue}`;
export const auditRetentionScheduleId = (taskQueue: string) => `audit-retention:${taskQueue}`;
export const spaceMoveJobId = (spaceId: string) => `space-move:${spaceId}`;
export const translationJobId = (translationId: string, run: number) => `translation:${translationId}:${run}`;

/** How long a request waits on Temporal before it gives up with a 503. */
const callTimeoutMs = 5000;
/** After a failure, requests fail at once for this long instead of each waiting for the timeout. */
const failFastMs = 1000;
const statusTtlMs = 1000;
const staleStatusMs = 5000;

/**
 * The API's one Temporal client: starts and cancels jobs (the domain's `Jobs` port). The connection is made on first use,
 * so the API starts (and serves reads) while Temporal is down.
 */
export class JobClient implements Jobs {
  private readonly connection: Connection;
  private readonly client: Client;
  private failedAt = 0;
  private known: { up: boolean; at: number } | undefined;
  private checking: Promise<boolean> | undefined;
  private consolidationScheduled: Promise<void> | undefined;

  /**
   * `storageOf` (storage nodes): the storage that keeps a space, whose queue its repository's jobs
   * go to. Without it, every job goes to the deployment's queue.
   */
  constructor(
    readonly settings: TemporalSettings,
    private readonly storageOf?: (spaceId: string) => Promise<string | undefined>,
  ) {
    this.connection = Connection.lazy({
      address: settings.address,
      // A couple of quick retries ride out a blip; the default ten would outlast the request's patience.
      interceptors: [makeGrpcRetryInterceptor(defaultGrpcRetryOptions({ maxAttempts: 3 }))],
    });
    hooksOnlyWhileRunning(this.connection.callContextStorage);
    this.client = new Client({ connection: this.connection, namespace: settings.namespace });
  }

  /** The queue of a job on a space's repository: its storage's, on storage nodes. */
  private async queueOf(spaceId: string): Promise<string> {
    const storage = this.storageOf && (await this.storageOf(spaceId));
    return storage ? storageTaskQueue(this.settings.taskQueue, storage) : this.settings.taskQueue;
  }

  /**
   * Starts the purge of a space that has just gone into the bin. Any job still running under the
   * id is stale (the space was live until now) and is replaced.
   */
  async startSpaceDeletion(input: SpaceDeletionInput): Promise<void> {
    await this.call(`start the purge of space ${input.spaceId}`, () => this.startDeletionWorkflow(input));
  }

  /**
   * Makes sure the space's deletion at `input.deletedAt` has its job: keeps a running job for that
   * deletion, replaces one left from an earlier deletion, starts one if there is none.
   */
  async ensureSpaceDeletion(input: SpaceDeletionInput): Promise<void> {
    await this.call(`check the purge job of space ${input.spaceId}`, async () => {
      const running = await this.client.workflow
        .getHandle(spaceDeletionJobId(input.spaceId))
        .describe()
        .catch((error) => {
          if (error instanceof WorkflowNotFoundError) return undefined;
          throw error;
        });
      if (running?.status.name === 'RUNNING' && running.memo?.deletedAt === input.deletedAt) return;
      await this.startDeletionWorkflow(input);
    });
  }

  /**
   * Tells the space's job that the deletion at `deletedAt` was undone, so it ends without purging.
   * A job for a newer deletion ignores it; no job at all is fine.
   */
  async cancelSpaceDeletion(spaceId: string, deletedAt: string): Promise<void> {
    await this.call(`cancel the purge of space ${spaceId}`, async () => {
      try {
        await this.client.workflow.getHandle(spaceDeletionJobId(spaceId)).signal(spaceRestored, deletedAt);
      } catch (error) {
        if (!(error instanceof WorkflowNotFoundError)) throw error;
      }
    });
  }

  /**
   * Processes an OpenAPI specification's source. A running job for the spec is joined and told the
   * source changed (one more round), so there is never a second job for one spec.
   */
  async startOpenAPIProcessing(organizationId: string, slug: string): Promise<void> {
    await this.call(`start processing OpenAPI specification ${slug}`, () =>
      this.client.workflow.signalWithStart<typeof openapiProcessing>('openapiProcessing', {
        taskQueue: this.settings.taskQueue,
        workflowId: openAPIJobId(organizationId, slug),
        args: [{ organizationId, slug }],
        signal: openAPISourceChanged,
        signalArgs: [],
      }),
    );
  }

  /** Runs a translation's run `run`; a job already under that id (the same run asked twice) is joined. */
  async startTranslationRun(translationId: string, run: number, sourceSpaceId: string): Promise<void> {
    await this.call(`start run ${run} of translation ${translationId}`, async () =>
      this.client.workflow.start<typeof translationRun>('translationRun', {
        taskQueue: await this.queueOf(sourceSpaceId),
        workflowId: translationJobId(translationId, run),
        args: [{ translationId, run }],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    );
  }

  /** Renders a change request's PDF; the same revision and options asked again join the job under way. */
  async startPdfExport(input: PdfExportInput): Promise<void> {
    await this.call(`start the PDF export of ${input.changeRequestId ? `change request ${input.changeRequestId}` : `space ${input.spaceId}`}`, async () =>
      this.client.workflow.start<typeof pdfExport>('pdfExport', {
        taskQueue: await this.queueOf(input.spaceId),
        workflowId: pdfJobId(input),
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    );
  }

  /** Starts an import run's job, on the queue of its target space's storage. */
  async startImport(input: ImportJobInput): Promise<void> {
    await this.call(`start import run ${input.runId}`, async () =>
      this.client.workflow.start<typeof contentImport>('contentImport', {
        taskQueue: await this.queueOf(input.spaceId),
        workflowId: `import:${input.runId}`,
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    );
  }

  /**
   * Tells the organization's conversation job that posts are waiting (starting it if it isn't
   * running), and makes sure the periodic consolidation schedule exists (once per process).
   */
  async signalConversationsIngested(organizationId: string): Promise<void> {
    await this.call(`start processing the conversations of organization ${organizationId}`, async () => {
      await this.client.workflow.signalWithStart<typeof conversationProcessing>('conversationProcessing', {
        taskQueue: this.settings.taskQueue,
        workflowId: conversationsJobId(organizationId),
        args: [{ organizationId, consolidateWhenQuietMs: this.settings.consolidateWhenQuietMs ?? 10_000 }],
        signal: conversationsIngested,
        signalArgs: [],
      });
      this.consolidationScheduled ??= this.scheduleConsolidation().catch((error: unknown) => {
        this.consolidationScheduled = undefined;
        throw error;
      });
      await this.consolidationScheduled;
    });
  }

  /** The schedule that consolidates issue clusters; an existing one is kept as it is. */
  private async scheduleConsolidation(): Promise<void> {
    try {
      await this.client.schedule.create({
        scheduleId: consolidationScheduleId(this.settings.taskQueue),
        spec: { intervals: [{ every: this.settings.consolidationEveryMs ?? 3_600_000 }] },
        action: { type: 'startWorkflow', workflowType: 'conversationsConsolidation', taskQueue: this.settings.taskQueue, args: [] },
        policies: { overlap: ScheduleOverlapPolicy.SKIP },
      });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    }
  }

  /** Tells the configured renderer that a space's published sites, or a site, changed (a job with retries); nothing without a renderer. */
  async startRendererRevalidation(subject: RevalidationSubject): Promise<void> {
    if (!this.settings.renderer) return;
    const key = 'spaceId' in subject ? `space:${subject.spaceId}` : `site:${subject.siteId}`;
    await this.call(`start the renderer revalidation of ${key}`, () =>
      this.client.workflow.start<typeof rendererRevalidation>('rendererRevalidation', {
        taskQueue: this.settings.taskQueue,
        workflowId: `renderer-revalidation:${key}:${randomUUID()}`,
        args: [subject],
      }),
    );
  }

  /** Starts a Git Sync import or export of a space: each request its own job. */
  async startGitSync(job: GitSyncJob): Promise<void> {
    await this.call(`start the Git Sync ${job.direction} of space ${job.spaceId}`, async () =>
      this.client.workflow.start<typeof gitSync>('gitSync', { taskQueue: await this.queueOf(job.spaceId), workflowId: gitSyncJobId(job, randomUUID()), args: [job] }),
    );
  }

  /**
   * Makes sure the repository maintenance schedule exists, with this deployment's interval and
   * threshold (an existing one is updated to them). Returns its id.
   */
  async ensureRepositoryMaintenance(): Promise<string> {
    // On a storage node, the schedule of its storage, run by its own workers.
    const taskQueue = this.settings.storage ? storageTaskQueue(this.settings.taskQueue, this.settings.storage) : this.settings.taskQueue;
    const input: RepositoryMaintenanceInput = { looseObjects: this.settings.repackLooseObjects ?? 1000 };
    return this.ensureSchedule('schedule the repository maintenance', maintenanceScheduleId(taskQueue), this.settings.repackEveryMs ?? 3_600_000, {
      type: 'startWorkflow',
      workflowType: 'repositoryMaintenance',
      taskQueue,
      args: [input],
    });
  }

  /** Makes sure the schedule that refreshes URL-sourced OpenAPI specifications exists, at this deployment's interval. Returns its id. */
  async ensureOpenAPIRefresh(): Promise<string> {
    const { taskQueue } = this.settings;
    return this.ensureSchedule('schedule the OpenAPI refresh', openAPIRefreshScheduleId(taskQueue), this.settings.openapiRefreshEveryMs ?? 21_600_000, {
      type: 'startWorkflow',
      workflowType: 'openapiRefresh',
      taskQueue,
      args: [],
    });
  }

  /** Makes sure the hourly schedule that applies the audit log's retention exists, with this deployment's retention. Returns its id. */
  async ensureAuditRetention(): Promise<string> {
    const { taskQueue } = this.settings;
    const input: AuditRetentionInput = { retentionMs: this.settings.auditRetentionMs ?? 365 * 86_400_000 };
    return this.ensureSchedule('schedule the audit log retention', auditRetentionScheduleId(taskQueue), 3_600_000, {
      type: 'startWorkflow',
      workflowType: 'auditRetention',
      taskQueue,
      args: [input],
    });
  }

  /** Creates the schedule, or brings an existing one to this interval and action (one run at a time). */
  private async ensureSchedule(what: string, scheduleId: string, every: number, action: ScheduleOptionsStartWorkflowAction<Workflow>): Promise<string> {
    await this.call(what, async () => {
      try {
        await this.client.schedule.create({ scheduleId, spec: { intervals: [{ every }] }, action, policies: { overlap: ScheduleOverlapPolicy.SKIP } });
      } catch (error) {
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
        await this.client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec: { intervals: [{ every }] }, action }));
      }
    });
    return scheduleId;
  }

  /**
   * Starts moving a space to another storage (workflows/spaceMove.workflow.ts), or finds the move
   * of that space already under way; the handle's `result()` waits for it to end.
   */
  async startSpaceMove(move: SpaceMove, releaseAfterMs: number): Promise<{ workflowId: string; result(): Promise<string> }> {
    const queue = (storage: string) => storageTaskQueue(this.settings.taskQueue, storage);
    const workflowId = spaceMoveJobId(move.spaceId);
    return this.call(`start the move of space ${move.spaceId}`, () =>
      this.client.workflow
        .start<typeof spaceMove>('spaceMove', { taskQueue: this.settings.taskQueue, workflowId, args: [{ ...move, sourceQueue: queue(move.from), targetQueue: queue(move.to), releaseAfterMs }] })
        .catch((error) => {
          if (error instanceof WorkflowExecutionAlreadyStartedError) return this.client.workflow.getHandle<typeof spaceMove>(workflowId);
          throw error;
        }),
    );
  }

  private async startDeletionWorkflow(input: SpaceDeletionInput) {
    return this.client.workflow.start<typeof spaceDeletion>('spaceDeletion', {
      taskQueue: await this.queueOf(input.spaceId),
      workflowId: spaceDeletionJobId(input.spaceId),
      args: [input],
      memo: { deletedAt: input.deletedAt },
      workflowIdConflictPolicy: 'TERMINATE_EXISTING',
    });
  }

  /**
   * Whether Temporal answered its last health check. Checks run at most once a second; an answer
   * up to a few seconds old is returned at once while the next check runs, an older one is not used.
   */
  async isUp(): Promise<boolean> {
    if (this.known && Date.now() - this.known.at < statusTtlMs) return this.known.up;
    this.checking ??= this.connection
      .withDeadline(Date.now() + 1000, () => this.connection.healthService.check({}))
      .then(
        (health) => health.status === 1, // SERVING
        () => false,
      )
      .then((up) => {
        this.known = { up, at: Date.now() };
        this.checking = undefined;
        return up;
      });
    return this.known && Date.now() - this.known.at < staleStatusMs ? this.known.up : this.checking;
  }

  async close(): Promise<void> {
    await this.connection.close().catch(() => undefined);
  }

  private async call<T>(what: string, work: () => Promise<T>): Promise<T> {
    const unavailable = (reason: string) =>
      new JobsUnavailableError(`Could not ${what}: the job service (Temporal at ${this.settings.address}) is unavailable (${reason}). Nothing was changed; try again later.`);
    if (Date.now() - this.failedAt < failFastMs) throw unavailable('it failed a moment ago');
    try {
      const result = await this.connection.withDeadline(Date.now() + callTimeoutMs, work);
      this.known = { up: true, at: Date.now() };
      return result;
    } catch (error) {
      this.failedAt = Date.now();
      this.known = { up: false, at: Date.now() };
      throw unavailable(error instanceof Error ? error.message.split('\n')[0]! : String(error));
    }
  }
}
