import type { PublishedDocument, PublishedPageView } from '../../../domain/publishing/index.js';
import { findPageById, type Revision, type RevisionPage } from '../../../engine/index.js';
import { publishedPageHtml, tooLargePageHtml } from './publishedPage.js';

/**
 * Rendering a published page, in the worker pool (engine/runtime/workerPool.ts): rendering is CPU work on
 * what writers wrote, so it runs under the pool's time limit and never on the event loop. The
 * view comes without its pages' markdown (the page's own Document comes with it).
 */
export interface PageToRender {
  view: PublishedPageView & { page: RevisionPage };
  published: PublishedDocument;
  /** The longest page HTML served, in UTF-16 units: past it the page says it is too large and links its markdown. */
  htmlLimit: number;
}

/**
 * The revisions this thread rendered from last, by space and commit (a commit never changes): the
 * frame's parts that are the same on every page of a revision are kept by page object, so the
 * pages of a revision are rendered against the first copy that came, not each its own.
 */
const revisions = new Map<string, Revision>();
const revisionsKept = 8;

function keptRevision(spaceId: string, revision: Revision): Revision {
  const key = `${spaceId}:${revision.commit}`;
  const kept = revisions.get(key);
  revisions.delete(key);
  revisions.set(key, kept ?? revision);
  if (revisions.size > revisionsKept) revisions.delete(revisions.keys().next().value!);
  return kept ?? revision;
}

export async function renderPublishedPage({ view, published, htmlLimit }: PageToRender): Promise<string> {
  const revision = keptRevision(view.place.siteSpace.spaceId, view.revision);
  // The frame finds the current page among the revision's pages by identity: the kept copy's own.
  const page = findPageById(revision, view.page.id) ?? view.page;
  const html = await publishedPageHtml({ ...view, revision, page }, published);
  return html.length > htmlLimit ? tooLargePageHtml(view) : html;
}
