import type { ContentDeps } from './deps.js';
import { log } from './log.js';
import type { RevalidationSubject } from './ports.js';

/**
 * Tells a configured renderer that what a space's sites, or a site, show has changed: a job with
 * retries, started without waiting, so a renderer that is down never fails the change itself.
 */
export function announceToRenderer(deps: Pick<ContentDeps, 'jobs'>, subject: RevalidationSubject): void {
  deps.jobs?.startRendererRevalidation(subject).catch((error: Error) => log.warn('could not start the renderer revalidation', { ...subject, error: error.message }));
}
