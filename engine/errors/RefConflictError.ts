import { EngineError } from './EngineError.js';

/** The branch moved since the change was based on it: nothing was written to the branch. */
export class RefConflictError extends EngineError {
  readonly code = 'RefConflict';
  constructor(
    readonly ref: string,
    readonly expected: string | null,
    readonly actual: string | null,
  ) {
    super(`${ref} is at ${actual ?? 'nothing'}, not at ${expected ?? 'nothing'} as the change expected`);
    this.name = 'RefConflictError';
  }
}
