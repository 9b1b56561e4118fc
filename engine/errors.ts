/** Errors the engine throws; the API maps each `code` to an HTTP status in one place. */
export class EngineError extends Error {
  constructor(
    readonly code: 'ref_conflict' | 'not_found' | 'locked' | 'invalid_change',
    message: string,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

/** The branch moved since the change was based on it: nothing was written to the branch. */
export class RefConflictError extends EngineError {
  constructor(
    readonly ref: string,
    readonly expected: string | null,
    readonly actual: string | null,
  ) {
    super('ref_conflict', `${ref} is at ${actual ?? 'nothing'}, not at ${expected ?? 'nothing'} as the change expected`);
  }
}
