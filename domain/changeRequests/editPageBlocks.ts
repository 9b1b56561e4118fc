import path from 'node:path';
import { allPages, findPageById, MarkdownTooDeepError, UnknownBlockError } from '../../engine/index.js';
import { listOpenAPISpecs } from '../../storage/openapi.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput, missing } from '../common/errors.js';
import { markdownOfBlocks, openPageBlocks } from '../documents/index.js';
import type { EditableBlock, WrittenBlock } from '../../engine/index.js';
import { type EditedBranch, editedBranchName, readEditedRevision, updateEditedContent } from './editedBranch.js';
import { pageAt, readPageSource, savePageSource } from './editPageSource.js';

/** What a page's blocks may point at, each as a title and its target as the page's markdown writes it. */
export interface BlockTargets {
  /** The branch's other pages: paths from this page's file, as Git Sync writes links. */
  pages: Target[];
  /** Its files (`.gitbook/assets/`), for file blocks. */
  files: Target[];
  /** Its reusable contents (`.gitbook/includes/`), for includes. */
  reusable: Target[];
  /** The organization's OpenAPI specifications, by slug. */
  specs: Target[];
}

interface Target {
  title: string;
  target: string;
}

/** The most specifications offered: a picker, not a catalogue (a slug not offered can still be typed). */
const offeredSpecs = 200;

/**
 * A page as the block editor opens it: its title, its blocks at the branch's head, that head, and
 * what its blocks may point at (BlockTargets).
 */
export async function readPageBlocks(deps: ContentDeps, edited: EditedBranch, pageId: string) {
  const source = await readPageSource(deps, edited, pageId);
  const from = path.posix.dirname(source.page.file ?? '');
  const relative = (file: string) => path.posix.relative(from, file);
  const { revision } = source;
  const [blocks, specs] = await Promise.all([openPageBlocks(source.markdown), listOpenAPISpecs(deps.db, edited.space.organizationId, { limit: offeredSpecs })]);
  const targets: BlockTargets = {
    pages: allPages(revision.pages)
      .filter((page) => page.id !== pageId && page.file)
      .map((page) => ({ title: page.title, target: relative(page.file!) })),
    files: revision.files.map((file) => ({ title: file.name, target: relative(file.path) })),
    reusable: revision.reusableContents.map((content) => ({ title: content.title, target: relative(content.path) })),
    specs: specs.items.map((spec) => ({ title: spec.slug, target: spec.slug })),
  };
  return { page: source.page, title: source.title, head: source.head, blocks, targets };
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
  const revision = await readEditedRevision(deps, input.edited);
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
