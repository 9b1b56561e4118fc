import type { Readable } from 'node:stream';
import type { Repository } from '../../engine/index.js';
import type { GitSyncJob, ImportJobInput, PdfExportInput, SpaceDeletionInput } from './jobs.js';

export type { GitSyncJob, ImportJobInput, PdfExportInput, SpaceDeletionInput } from './jobs.js';

/**
 * The durable jobs the domain starts, signals and cancels. workflows/client.ts implements it on
 * Temporal; a failure to reach the job service is the implementation's error to raise.
 */
export interface Jobs {
  startSpaceDeletion(input: SpaceDeletionInput): Promise<void>;
  /** Keeps a running job for this deletion, replaces one left from an earlier one, starts one if none. */
  ensureSpaceDeletion(input: SpaceDeletionInput): Promise<void>;
  cancelSpaceDeletion(spaceId: string, deletedAt: string): Promise<void>;
  startOpenAPIProcessing(organizationId: string, slug: string): Promise<void>;
  /** `sourceSpaceId`: the space whose repository the run reads (its storage runs the job). */
  startTranslationRun(translationId: string, run: number, sourceSpaceId: string): Promise<void>;
  startPdfExport(input: PdfExportInput): Promise<void>;
  /** Starts the job of an import run (one job per run). */
  startImport(input: ImportJobInput): Promise<void>;
  signalConversationsIngested(organizationId: string): Promise<void>;
  startGitSync(job: GitSyncJob): Promise<void>;
  /**
   * Tells the configured site renderer (QUIRE_RENDERER_URL) that what a space's published sites,
   * or a site, show has changed; nothing when no renderer is configured.
   */
  startRendererRevalidation(subject: RevalidationSubject): Promise<void>;
}

/** What changed for a renderer's caches: a space (every published site showing it) or a site. */
export type RevalidationSubject = { spaceId: string } | { siteId: string };

/**
 * Where the repositories of spaces live. engine/spaceRepositories.ts implements it on the local
 * disk (`<dataDir>/spaces/<id>.git`) of one storage node.
 */
export interface Repositories {
  /** The storage these repositories are on: where a space made here is placed. */
  storage: string;
  /** Throws RepositoryElsewhereError when another storage node keeps the space's repository. */
  open(spaceId: string): Repository;
  create(spaceId: string): Promise<Repository>;
  /** A copy with the same history; with `branches`, only those branches are kept. */
  copy(fromSpaceId: string, toSpaceId: string, options?: { branches?: string[] }): Promise<Repository>;
  /** Removes the repository; nothing there is fine. */
  remove(spaceId: string): Promise<void>;
  // Moving a space between storages (domain/storages/spaceMove.ts):
  /** No branch of the repository moves until `thaw`: writes fail with RepositoryMovingError. */
  freeze(spaceId: string): Promise<void>;
  thaw(spaceId: string): Promise<void>;
  /** The whole repository as a git bundle. */
  bundle(spaceId: string): Readable;
  /** The repository made from a bundle file, checked and frozen: its refs. */
  receive(spaceId: string, bundleFile: string): Promise<Record<string, string>>;
  /** Under the repository's lock: its refs to `decide`; on true, the repository is set aside and no longer opens here. */
  handOver(spaceId: string, decide: (refs: Record<string, string>) => Promise<boolean>): Promise<boolean>;
  /** Deletes a repository handed over; nothing there is fine. */
  removeHandedOver(spaceId: string): void;
}
