import { EngineError } from './EngineError.js';

/**
 * Work on user input (parsing markdown, converting a Document) that ran past the time limit of
 * one task in the worker pool: the task was stopped and nothing was stored.
 */
export class WorkTooCostlyError extends EngineError {
  readonly code = 'WorkTooCostly';
  constructor(
    readonly subject: string,
    readonly limitMs: number,
  ) {
    super(`${subject} took longer than the limit of ${limitMs} ms to process: nothing was stored; split it into smaller pieces`);
    this.name = 'WorkTooCostlyError';
  }
}
