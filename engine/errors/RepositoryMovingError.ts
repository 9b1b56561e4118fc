import { EngineError } from './EngineError.js';

/** The repository is being moved to another storage: it reads as before, and takes no write until the move ends. */
export class RepositoryMovingError extends EngineError {
  readonly code = 'RepositoryMoving';
  constructor(readonly gitdir: string) {
    super('the space is being moved to another storage: it takes no changes for now, try again shortly');
    this.name = 'RepositoryMovingError';
  }
}
