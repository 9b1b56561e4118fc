import { EngineError } from './EngineError.js';

/** Both sides of a merge changed the same paths differently: nothing was committed. */
export class MergeConflictError extends EngineError {
  readonly code = 'MergeConflict';
  constructor(readonly paths: string[]) {
    super(`Merge conflict in ${paths.length === 1 ? '1 path' : `${paths.length} paths`}: ${paths.slice(0, 10).join(', ')}${paths.length > 10 ? ', …' : ''}`);
    this.name = 'MergeConflictError';
  }
}
