import { EngineError } from './EngineError.js';

/** No branch of that name, or no commit of that id, in the repository. */
export class RevisionNotFoundError extends EngineError {
  readonly code = 'RevisionNotFound';
  constructor(readonly ref: string) {
    super(`Revision ${ref} not found`);
    this.name = 'RevisionNotFoundError';
  }
}
