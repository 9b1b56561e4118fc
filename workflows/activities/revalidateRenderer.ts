import type { RevalidationSubject } from '../../domain/common/ports.js';
import type { ContentDeps } from '../../domain/common/deps.js';
import { notifyRenderer, revalidationTags } from '../../domain/publishing/index.js';
import type { RendererSettings } from '../settings.js';

/** The tags a change makes stale, posted to the renderer; a failed post throws, for the job to retry. */
export function revalidateRenderer(deps: ContentDeps, renderer: RendererSettings | undefined) {
  return async (subject: RevalidationSubject) => {
    const tags = await revalidationTags(deps, subject);
    if (renderer && tags.length > 0) await notifyRenderer(renderer, tags);
    return { tags };
  };
}
