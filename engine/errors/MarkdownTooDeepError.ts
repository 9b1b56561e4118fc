import { EngineError } from './EngineError.js';

/**
 * Markdown whose blocks or marks nest deeper than `limit` (quotes in quotes, lists in lists,
 * emphasis in emphasis): refused when written, and not converted to a Document when read (a page
 * pushed through git may hold it), because every converter after the parser recurses.
 */
export class MarkdownTooDeepError extends EngineError {
  readonly code = 'MarkdownTooDeep';
  constructor(
    readonly limit: number,
    message = `The markdown nests blocks or marks deeper than the limit of ${limit} levels`,
  ) {
    super(message);
    this.name = 'MarkdownTooDeepError';
  }
}
