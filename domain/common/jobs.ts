/**
 * What the durable jobs the domain starts are given (the Jobs port of ports.ts starts them): in
 * domain/common, so that the port doesn't import the capabilities that use it.
 */

/** What a PDF export is of: a change request's revision, whole or one page of it. */
export interface PdfExportInput {
  spaceId: string;
  /** The change request whose head is printed; null: the space's own content (getSpacePDF). */
  changeRequestId: string | null;
  revision: string;
  /** A page id for `only` that page, or null for every page. */
  page: string | null;
}

/** An import run (domain/imports), as its job receives it: the run names its source and target. */
export interface ImportJobInput {
  runId: string;
  organizationId: string;
  /** The target space: the job runs on its storage's queue. */
  spaceId: string;
}

/** One Git Sync operation, as its job receives it. */
export interface GitSyncJob {
  direction: 'import' | 'export';
  spaceId: string;
  /** The remote repository, credentials included as the caller gave them. */
  url: string;
  ref: string;
  requestedBy: string;
  force: boolean;
  standalone?: boolean;
  commitMessage?: string;
  projectDirectory?: string;
}

/** A space's purge job: due `retentionMs` after `deletedAt`, unless the space is restored first. */
export interface SpaceDeletionInput {
  spaceId: string;
  /** When the space went into the bin; the purge is due `retentionMs` later. */
  deletedAt: string;
  retentionMs: number;
}
