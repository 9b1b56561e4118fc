import { EngineError } from './EngineError.js';

/** A change no repository can hold (a path like `../x` or `.git/config`, a file where a folder is): nothing was written. */
export class InvalidChangeError extends EngineError {
  readonly code = 'InvalidChange';
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'InvalidChangeError';
  }
}
