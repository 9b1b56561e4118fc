import { EngineError, type EngineErrorCode, WorkTooCostlyError } from '../engine/index.js';
import { DomainError } from '../domain/common/errors.js';
import { StorageError } from '../storage/errors.js';
import { JobsUnavailableError } from '../workflows/client.js';

/** An error with the HTTP status and message the caller sees, in the upstream `{error: {code, message}}` body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message: string) => new HttpError(401, message);
export const forbidden = (message: string) => new HttpError(403, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const unprocessable = (message: string) => new HttpError(422, message);
export const unavailable = (message: string) => new HttpError(503, message);

const statusOfStorageCode: Record<StorageError['code'], number> = {
  not_found: 404,
  conflict: 409,
  invalid_cursor: 400,
  unavailable: 503,
  contended: 503,
};

const statusOfEngineCode: Record<EngineErrorCode, number> = {
  RefConflict: 409,
  RepositoryBusy: 503,
  // Reached only where the request couldn't be routed to the node that keeps it (see storageRouting).
  RepositoryElsewhere: 503,
  // A write while the space moves between storages (docs/decisions/storage.md): a retry soon succeeds.
  RepositoryMoving: 503,
  InvalidChange: 400,
  RevisionNotFound: 404,
  MergeConflict: 409,
  // Written content is checked (400 through InvalidChange); what fails on read came through git.
  MarkdownTooDeep: 422,
  // A task of the worker pool stopped at its time limit.
  WorkTooCostly: 422,
};

const statusOfDomainCode: Record<DomainError['code'], number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  space_locked: 423,
  too_many_attempts: 429,
};

/** A task of the worker pool stopped at its time limit: a caller may answer with something cheaper instead. */
export function isWorkTooCostly(error: unknown): boolean {
  return error instanceof WorkTooCostlyError;
}

/** The one place typed errors of the lower layers become HTTP statuses. */
/**
 * A full disk anywhere below (the file layer's ENOSPC or EDQUOT, SQLite's SQLITE_FULL, PostgreSQL's
 * 53100), however deep in the error's causes: nothing of the change was kept, and reads go on.
 */
function diskFull(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const { code, message, cause } = error as { code?: unknown; message?: unknown; cause?: unknown };
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100') return true;
  if (typeof message === 'string' && /\b(ENOSPC|SQLITE_FULL)\b|no space left on device|database or disk is full/i.test(message)) return true;
  return diskFull(cause, depth + 1);
}

export const diskFullMessage = 'The server has no disk space left: nothing of this change was saved. Reads go on; writes work again once space is freed.';

export function toHttpError(error: unknown): HttpError | undefined {
  if (error instanceof HttpError) return error;
  if (diskFull(error)) return new HttpError(507, diskFullMessage);
  if (error instanceof DomainError) return new HttpError(statusOfDomainCode[error.code], error.message);
  if (error instanceof StorageError) return new HttpError(statusOfStorageCode[error.code], error.message);
  if (error instanceof EngineError) return new HttpError(statusOfEngineCode[error.code], error.message);
  if (error instanceof JobsUnavailableError) return new HttpError(503, error.message);
  return undefined;
}

export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}
