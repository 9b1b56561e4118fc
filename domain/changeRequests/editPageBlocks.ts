import path from 'node:path';
import { allPages, findPageById, MarkdownTooDeepError, UnknownBlockError } from '../../engine/index.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { markdownOfBlocks, openPageBlocks } from '../documents/index.js';
import type { EditableBlock, WrittenBlock } from '../../engine/index.js';
import { type EditedBranch, editedBranchName, readEditedRevision, updateEditedContent } from './editedBranch.js';
import { pageAt, readPageSource, savePageSource } from './editPageSource.js';

/**
 * A page as the block editor opens it: its title, its blocks at the branch's
 * head, that head, and the other pages it may link to (their titles, and their paths from this
 * page's file, as Git Sync writes links).
 */
export async function readPageBlocks(deps: ContentDeps, edited: EditedBranch, pageId: string) {
  const source = await readPageSource(deps, edited, pageId);
  const from = path.posix.dirname(source.page.file ?? '');
  const linkTargets = allPages(source.revision.pages)
    .filter((page) => page.id !== pageId && page.file)
    .map((page) => ({ title: page.title, target: path.posix.relative(from, page.file!) }));
  return { page: source.page, title: source.title, head: source.head, blocks: await openPageBlocks(source.markdown), linkTargets };
}

export type BlocksSave =
  /** Saved as written: the key each written block has now (null: none of its own), to go on from. */
  | { result: 'saved'; commit: string; merged: false; keys: Array<string | null> }
  /** Saved, merged with what changed on the branch meanwhile: the page's blocks now, to go on from. */
  | { result: 'saved'; commit: string; merged: true; blocks: EditableBlock[] }
  /** The page changed meanwhile on the blocks the writer changed: `markdown` holds both, marked (see savePageSource); nothing was written. */
  | { result: 'conflict'; markdown: string; written: string; head: string };

/**
 * Saves the block editor's page: its blocks, written over the page's markdown at `base` (what it
 * was opened from: unchanged blocks keep their text byte for byte), then saved as the markdown
 * editor saves, merged with what changed on the branch meanwhile.
 */
export async function savePageBlocks(deps: ContentDeps, input: { edited: EditedBranch; pageId: string; base: string; title: string; blocks: WrittenBlock[]; author: UserRecord }): Promise<BlocksSave> {
  const opened = await pageAt(deps, input.edited, input.base, input.pageId);
  if (!opened) throw missing(`Page ${input.pageId} is not in ${editedBranchName(input.edited)} at ${input.base}`);
  let written: { markdown: string; keys: Array<string | null> };
  try {
    written = await markdownOfBlocks(opened.markdown, input.blocks);
  } catch (error) {
    if (error instanceof UnknownBlockError || error instanceof MarkdownTooDeepError) throw invalidInput(error.message);
    throw error;
  }
  const saved = await savePageSource(deps, { ...input, markdown: written.markdown });
  if (saved.result === 'conflict') return { ...saved, written: written.markdown };
  if (!saved.merged) return { result: 'saved', commit: saved.commit, merged: false, keys: written.keys };
  const now = await pageAt(deps, input.edited, saved.commit, input.pageId);
  return { result: 'saved', commit: saved.commit, merged: true, blocks: await openPageBlocks(now?.markdown ?? written.markdown) };
}

/**
 * A file dropped or pasted into a page's editor: committed to the page's branch as the
 * API's `insert_files` does (under `.gitbook/assets/`, a name taken getting a `-2`), in a commit of
 * its own. Returns that commit and the file's path as the page's markdown links to it (relative
 * to the page's file, as Git Sync writes it).
 */
export async function uploadPageFile(
  deps: ContentDeps,
  input: { edited: EditedBranch; pageId: string; name: string; contentType: string; base64: string; author: UserRecord },
): Promise<{ commit: string; src: string }> {
  const { revision } = await readEditedRevision(deps, input.edited);
  const page = findPageById(revision, input.pageId);
  if (!page?.file) throw missing(`Page ${input.pageId} not found in ${editedBranchName(input.edited)}`);
  const update = await updateEditedContent(deps, {
    edited: input.edited,
    operations: [{ operation: 'insert_files', files: [{ name: input.name, contentType: input.contentType, base64: input.base64 }] }],
    author: input.author,
  });
  const stored = update.insertedFiles[0]!;
  return { commit: update.commit, src: path.posix.relative(path.posix.dirname(page.file), stored) };
}
