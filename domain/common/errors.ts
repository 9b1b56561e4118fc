/**
 * Why a domain command refused: a stable code and a message for the caller. api/errors.ts maps
 * the codes to HTTP statuses once; activities report them as they are.
 */
export type DomainErrorCode = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'precondition_failed' | 'space_locked' | 'too_many_attempts';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string) => new DomainError('invalid', message);
export const notAuthenticated = (message: string) => new DomainError('unauthenticated', message);
export const notAllowed = (message: string) => new DomainError('forbidden', message);
export const missing = (message: string) => new DomainError('not_found', message);
export const alreadyThere = (message: string) => new DomainError('conflict', message);
export const preconditionFailed = (message: string) => new DomainError('precondition_failed', message);
export const tooManyAttempts = (message: string) => new DomainError('too_many_attempts', message);
export const spaceLocked = (spaceId: string) => new DomainError('space_locked', `Space ${spaceId} is locked: unlock it (editMode "live") to change its content`);
