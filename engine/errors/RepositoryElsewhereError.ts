import { EngineError } from './EngineError.js';

/** The space's repository is not on this node's disk: another storage node keeps it. */
export class RepositoryElsewhereError extends EngineError {
  readonly code = 'RepositoryElsewhere';
  constructor(readonly spaceId: string) {
    super(`the repository of space ${spaceId} is kept by another storage node`);
    this.name = 'RepositoryElsewhereError';
  }
}
