/** What the engine can fail with, as a stable code: the API maps each one to an HTTP status in one place. */
export type EngineErrorCode =
  'RefConflict' | 'RepositoryBusy' | 'RepositoryElsewhere' | 'RepositoryMoving' | 'InvalidChange' | 'RevisionNotFound' | 'MergeConflict' | 'MarkdownTooDeep' | 'WorkTooCostly';

/** The base of the engine's typed errors (in the manner of isomorphic-git's): one class per failure, each with its data. */
export abstract class EngineError extends Error {
  abstract readonly code: EngineErrorCode;
}
