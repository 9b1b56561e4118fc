export { EngineError, type EngineErrorCode } from './EngineError.js';
export { InvalidChangeError } from './InvalidChangeError.js';
export { MarkdownTooDeepError } from './MarkdownTooDeepError.js';
export { MergeConflictError } from './MergeConflictError.js';
export { RefConflictError } from './RefConflictError.js';
export { RepositoryBusyError } from './RepositoryBusyError.js';
export { RepositoryElsewhereError } from './RepositoryElsewhereError.js';
export { RevisionNotFoundError } from './RevisionNotFoundError.js';
export { WorkTooCostlyError } from './WorkTooCostlyError.js';
