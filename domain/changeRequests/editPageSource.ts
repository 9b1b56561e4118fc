import { merge } from 'node-diff3';
import { convertMarkdownToDocument, findPageById, splitTitleHeading } from '../../engine/index.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { HeadMovedError } from './changeRequestContent.js';
import { assertEditable, type EditedBranch, editedBranchHead, editedBranchName, readEditedRevision, updateEditedContent } from './editedBranch.js';

/** A page as its editor opens it: its title and markdown at the branch's head, and that head (what a save is merged against). */
export async function readPageSource(deps: ContentDeps, edited: EditedBranch, pageId: string) {
  assertEditable(edited);
  const revision = await readEditedRevision(deps, edited);
  const page = findPageById(revision, pageId);
  if (!page || page.kind !== 'document') throw missing(`Page ${pageId} not found in ${editedBranchName(edited)}`);
  // The title has a field of its own: the text is what comes after its `# Title` line.
  return { page, title: page.title, markdown: splitTitleHeading(page.markdown ?? '').text, head: revision.commit, revision };
}

export type PageSave =
  | { result: 'saved'; commit: string; merged: boolean }
  /** Both the writer and the branch changed the same lines since `base`: the markdown holds both, marked, to choose from; nothing was written. */
  | { result: 'conflict'; markdown: string; head: string };

/** How the two sides of a conflict are marked: the writer's, and the branch's as it is now. */
const markers = (edited: EditedBranch) => ({ a: 'yours', b: edited.changeRequest ? 'the change request now' : 'the space now' });

/**
 * Saves a page's title and markdown as written from the branch's head `base`, as one commit. When
 * the branch moved meanwhile (a `git push`, another writer), the writer's changes are merged with
 * what changed there (diff3, line by line): changes to different lines are both kept; lines both
 * changed come back marked, to be chosen, and nothing is written. Never overwrites unseen work.
 */
export async function savePageSource(deps: ContentDeps, input: { edited: EditedBranch; pageId: string; base: string; title: string; markdown: string; author: UserRecord }): Promise<PageSave> {
  const title = input.title.trim();
  if (!title || title.length > 256) throw invalidInput('A page’s title has 1 to 256 characters');
  if (input.markdown.length > 1_000_000) throw invalidInput('A page’s markdown has at most 1,000,000 characters');
  const written = normalizeNewlines(input.markdown);
  // Twice at most: the branch may move again between the merge and the write.
  for (let attempt = 1; ; attempt += 1) {
    const head = await editedBranchHead(deps, input.edited);
    let markdown = written;
    let merged = false;
    const [before, now] = await Promise.all([head === input.base ? undefined : pageAt(deps, input.edited, input.base, input.pageId), pageAt(deps, input.edited, head, input.pageId)]);
    if (now === undefined) throw missing(`Page ${input.pageId} is not in ${editedBranchName(input.edited)} now`);
    if (head !== input.base) {
      if (now.markdown !== (before?.markdown ?? now.markdown)) {
        const result = merge(lines(written), lines(before?.markdown ?? ''), lines(now.markdown), { label: markers(input.edited) });
        if (result.conflict) return { result: 'conflict', markdown: result.result.join('\n'), head };
        markdown = result.result.join('\n');
        merged = true;
      }
    }
    // Nothing to write (a save of what is there already, an autosave with no edit): no empty commit.
    if (markdown === now.markdown && title === now.title) return { result: 'saved', commit: head, merged };
    try {
      const update = await updateEditedContent(deps, {
        edited: input.edited,
        operations: [{ operation: 'update_page', page: input.pageId, title, document: { markdown } }],
        author: input.author,
        expectHead: head,
      });
      return { result: 'saved', commit: update.commit, merged };
    } catch (error) {
      if (!(error instanceof HeadMovedError) || attempt === 2) throw error;
    }
  }
}

/** A document page's markdown (after its title line) at a commit of the branch; undefined when it isn't there. */
export async function pageAt(deps: ContentDeps, edited: EditedBranch, commit: string, pageId: string) {
  const revision = await readEditedRevision(deps, edited, commit);
  const page = findPageById(revision, pageId);
  return page && page.kind === 'document' ? { title: page.title, markdown: normalizeNewlines(splitTitleHeading(page.markdown ?? '').text) } : undefined;
}

const normalizeNewlines = (text: string) => text.replace(/\r\n?/g, '\n');
const lines = (text: string) => text.split('\n');

/**
 * A page's markdown as it would read, for the source editor's preview: its Document, and the
 * branch's revision and page its links resolve against (nothing is written).
 */
export async function previewPageSource(deps: ContentDeps, edited: EditedBranch, pageId: string, markdown: string) {
  if (markdown.length > 1_000_000) throw invalidInput('A page’s markdown has at most 1,000,000 characters');
  const { revision, page } = await readPageSource(deps, edited, pageId);
  return { revision, page, document: await convertMarkdownToDocument(normalizeNewlines(markdown), `The page "${page.title}"`) };
}
