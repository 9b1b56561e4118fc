/** Errors storage throws; the API maps each `code` to an HTTP status in one place. */
export class StorageError extends Error {
  constructor(
    readonly code: 'not_found' | 'conflict' | 'invalid_cursor' | 'unavailable' | 'contended',
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

export const notFound = (what: string) => new StorageError('not_found', `${what} not found`);
export const conflict = (message: string) => new StorageError('conflict', message);
export const databaseUnavailable = () => new StorageError('unavailable', 'The database is unavailable: try again shortly');
export const tooContended = () => new StorageError('contended', 'Too many concurrent changes to the same data: try again');
export const writerBusy = (waitedMs: number) => new StorageError('contended', `The database was busy with other changes for the ${waitedMs / 1000} s this one waited: try again`);
export const readersBusy = (waitedMs: number) => new StorageError('contended', `The database's snapshot reads were busy for the ${waitedMs / 1000} s this one waited: try again`);
export const transactionStuck = (stuckMs: number) => new StorageError('unavailable', `The change took over ${stuckMs / 1000} s and was rolled back: try again`);
export const statementTooLong = (statementMs: number) => new StorageError('unavailable', `A database statement ran over ${statementMs / 1000} s and was stopped: try again`);

/** A unique constraint refused the row: SQLite's message, PostgreSQL's code 23505. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505' || /UNIQUE constraint failed/.test((error as Error).message);
}
