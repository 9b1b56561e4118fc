import { EngineError } from './EngineError.js';

/** Another writer (Quire's or git's own) held the repository or its ref for longer than a writer waits. */
export class RepositoryBusyError extends EngineError {
  readonly code = 'RepositoryBusy';
  constructor(readonly reason: string) {
    super(`the repository is busy: ${reason}`);
    this.name = 'RepositoryBusyError';
  }
}
