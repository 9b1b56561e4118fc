import { createHash } from 'node:crypto';
import path from 'node:path';
import {
  assetsFolder,
  assignFiles,
  type Change,
  checkMarkdownDepth,
  convertDocumentToMarkdown,
  everyPage,
  InvalidChangeError,
  type JsonDocument,
  MarkdownTooDeepError,
  type PageContent,
  PageEdits,
  primaryBranch,
  type PageFields,
  readRevision,
  resolveRevision,
  type Revision,
  treeChanges,
  WorkTooCostlyError,
} from '../../engine/index.js';
import { addContributor, type ChangeRequestRecord } from '../../storage/changeRequests.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import { assertWritable, changeRequestHead } from './changeRequests.js';
import { largestFileBytes } from '../common/limits.js';
import type { ContentDeps } from '../common/deps.js';
import { invalidInput } from '../common/errors.js';
import { OutboundFetchError, outboundFetch } from '../common/outboundFetch.js';
import { writeContent } from '../spaces/index.js';

/** A page's document as the API takes it: markdown, the JSON Document, or nothing (`{}`). */
export type PageDocument = { markdown: string } | { document: JsonDocument } | Record<string, never>;

export type ContentOperation =
  | (PageFields & { operation: 'insert_page'; document: PageDocument; into?: string; at?: number; ref?: string })
  | (PageFields & { operation: 'update_page'; page: string; document?: PageDocument; into?: string | null; at?: number })
  | { operation: 'delete_page'; page: string }
  | { operation: 'revert_page'; page: string; revision?: string; block?: string[] }
  | { operation: 'insert_files'; files: Array<{ ref?: string; name: string; contentType?: string; url?: string; base64?: string }> };

/** What the batch did to each page it touched, in the order first touched. */
export interface ContentOutcome {
  kind: 'created' | 'updated' | 'deleted';
  pageId: string;
  ref?: string;
}

export interface ContentUpdate {
  commit: string;
  outcomes: ContentOutcome[];
  /** Repository paths of the files the batch inserted. */
  insertedFiles: string[];
}

const maxFileBytes = 1024 * 1024;
const fileName = /^[^/\\\u0000-\u001f]{1,256}$/;

interface NewFile {
  ref?: string;
  name: string;
  bytes: Buffer;
}

/** The largest file a `url` source may bring (a `base64` one: `maxFileBytes`). */
const maxFetchedBytes = largestFileBytes;

/**
 * The files of the batch, decoded (base64) or fetched (url, through the outbound-fetch guard) and
 * checked before anything is written: a file that can't be had refuses the whole batch.
 */
async function loadFiles(operations: ContentOperation[]): Promise<Map<number, NewFile[]>> {
  const loaded = new Map<number, NewFile[]>();
  for (const [index, operation] of operations.entries()) {
    if (operation.operation !== 'insert_files') continue;
    const files: NewFile[] = [];
    for (const [fileIndex, file] of operation.files.entries()) {
      const where = `changes[${index}].files[${fileIndex}]`;
      if (!fileName.test(file.name) || file.name === '.' || file.name === '..') throw invalidInput(`${where}: "name" must be a file name, without "/" or "\\"`);
      if ((file.url === undefined) === (file.base64 === undefined)) throw invalidInput(`${where}: give the file's bytes as "base64" or its "url", one of the two`);
      const ref = file.ref !== undefined ? { ref: file.ref } : {};
      if (file.url !== undefined) {
        try {
          const fetched = await outboundFetch(file.url, { maxBytes: maxFetchedBytes });
          files.push({ ...ref, name: file.name, bytes: fetched.body });
        } catch (error) {
          if (error instanceof OutboundFetchError) throw invalidInput(`${where}: ${error.message}`);
          throw error;
        }
        continue;
      }
      const base64 = file.base64!;
      if (file.contentType === undefined) throw invalidInput(`${where}: "contentType" is required with "base64"`);
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) throw invalidInput(`${where}: "base64" is not base64`);
      const bytes = Buffer.from(base64, 'base64');
      if (bytes.length > maxFileBytes) throw invalidInput(`${where}: the file is ${bytes.length} bytes; the limit is ${maxFileBytes}`);
      files.push({ ...ref, name: file.name, bytes });
    }
    loaded.set(index, files);
  }
  return loaded;
}

const blobId = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** The branch moved between a read and the write made from it (a push, another writer): nothing was written. */
export class HeadMovedError extends Error {
  constructor(readonly head: string) {
    super(`The branch moved to ${head}`);
    this.name = 'HeadMovedError';
  }
}

/**
 * Applies a batch of content changes to a change request, all or nothing, as one commit on its
 * branch authored by the caller (through writeContent). `ref`s of pages and files inserted in the
 * batch, and `/pages/<id>` and `/files/<id>` links, become relative links between the files.
 */
export async function updateChangeRequestContent(
  deps: ContentDeps,
  input: {
    space: SpaceRecord;
    changeRequest: ChangeRequestRecord;
    operations: ContentOperation[];
    author: UserRecord;
    /** The branch head the batch was made against: refused (HeadMovedError) when the branch has moved since, nothing written. */
    expectHead?: string;
  },
): Promise<ContentUpdate> {
  const { changeRequest } = input;
  assertWritable(changeRequest);
  await changeRequestHead(deps, changeRequest); // its branch made again, if a crash left the row without it
  const update = await updateBranchContent(deps, {
    ...input,
    branch: changeRequest.branch,
    message: `Update content of change request #${changeRequest.number}`,
    revertTo: changeRequest.revisionMergedAncestor ?? changeRequest.revisionInitial,
  });
  await addContributor(deps.db, changeRequest.id, input.author.id);
  return update;
}

/**
 * The same batch written straight to the space's primary branch: a live edit, for a space whose
 * edit mode is `live` (a locked space refuses, in writeContent). A `revert_page` names its revision.
 */
export async function updateLiveContent(deps: ContentDeps, input: { space: SpaceRecord; operations: ContentOperation[]; author: UserRecord; expectHead?: string }): Promise<ContentUpdate> {
  return updateBranchContent(deps, { ...input, branch: primaryBranch, message: 'Update content', revertTo: undefined });
}

async function updateBranchContent(
  deps: ContentDeps,
  input: { space: SpaceRecord; branch: string; message: string; revertTo: string | undefined; operations: ContentOperation[]; author: UserRecord; expectHead?: string },
): Promise<ContentUpdate> {
  const operations = await checkedDocuments(input.operations);
  const files = await loadFiles(operations);
  const refs = new Set<string>();
  for (const operation of operations) {
    const batchRefs = operation.operation === 'insert_page' ? [operation.ref] : operation.operation === 'insert_files' ? operation.files.map((file) => file.ref) : [];
    for (const ref of batchRefs) {
      if (ref === undefined) continue;
      if (refs.has(ref)) throw invalidInput(`"ref" ${JSON.stringify(ref)} is used twice in the batch`);
      refs.add(ref);
    }
  }
  let result: Omit<ContentUpdate, 'commit'> = { outcomes: [], insertedFiles: [] };
  const { commit } = await writeContent(deps, {
    space: input.space,
    branch: input.branch,
    message: input.message,
    author: input.author,
    changes: async (repo, head) => {
      if (!head) throw invalidInput(`The branch ${input.branch} has no commit`);
      if (input.expectHead !== undefined && head !== input.expectHead) throw new HeadMovedError(head);
      const revision = await readRevision(repo, head);
      const applied = await applyBatch(operations, files, revision, async (ref) => readRevision(repo, await resolveRevision(repo, ref)), input.revertTo);
      result = applied;
      return applied.changes;
    },
  });
  return { commit, outcomes: result.outcomes, insertedFiles: result.insertedFiles };
}

async function applyBatch(
  operations: ContentOperation[],
  files: Map<number, NewFile[]>,
  revision: Revision,
  readAt: (ref: string) => Promise<Revision>,
  /** What a `revert_page` without a revision goes back to: where the change request began. */
  revertTo: string | undefined,
): Promise<{ changes: Change[]; outcomes: ContentOutcome[]; insertedFiles: string[] }> {
  const edits = new PageEdits(revision);
  const outcomes = new Map<string, ContentOutcome>();
  const touch = (pageId: string, kind: ContentOutcome['kind'], ref?: string) => {
    const known = outcomes.get(pageId);
    if (!known) outcomes.set(pageId, { kind, pageId, ...(ref !== undefined ? { ref } : {}) });
    else if (kind === 'deleted') outcomes.set(pageId, known.kind === 'created' ? { ...known, kind } : { kind, pageId });
  };
  const pageRefs = new Map<string, string>();
  const fileRefs = new Map<string, string>();
  const assetChanges: Change[] = [];
  const usedAssets = new Map(revision.files.map((file) => [file.path, file.oid]));
  // Documents arrive as checked markdown (checkedDocuments).
  const content = (document: PageDocument | undefined): PageContent | undefined => {
    if (!document || !('markdown' in document)) return document ? { markdown: '' } : undefined;
    return { markdown: document.markdown };
  };
  for (const [index, operation] of operations.entries()) {
    const where = `changes[${index}] (${operation.operation})`;
    switch (operation.operation) {
      case 'insert_page': {
        const { operation: _kind, document, ref, ...fields } = operation;
        const page = edits.insert({ ...fields, content: content(document) ?? { markdown: '' } }, where);
        if (ref !== undefined) pageRefs.set(ref, page.id);
        touch(page.id, 'created', ref);
        break;
      }
      case 'update_page': {
        const { operation: _kind, page: pageId, document, ...fields } = operation;
        touch(edits.update(pageId, { ...fields, content: content(document) }, where).id, 'updated');
        break;
      }
      case 'delete_page':
        edits.remove(operation.page, where);
        touch(operation.page, 'deleted');
        break;
      case 'revert_page': {
        const to = operation.revision ?? revertTo;
        if (to === undefined) throw invalidInput(`${where}: "revision" names the revision to go back to`);
        const base = await readAt(to);
        if (operation.block !== undefined) touch(operation.page, edits.revertBlocks(operation.page, base, operation.block, where));
        else touch(operation.page, edits.revert(operation.page, base, where));
        break;
      }
      case 'insert_files':
        for (const file of files.get(index) ?? []) {
          const oid = blobId(file.bytes);
          const extension = path.posix.extname(file.name);
          const stem = file.name.slice(0, file.name.length - extension.length);
          let target = `${assetsFolder}${file.name}`;
          for (let copy = 2; usedAssets.has(target) && usedAssets.get(target) !== oid; copy += 1) target = `${assetsFolder}${stem}-${copy}${extension}`;
          usedAssets.set(target, oid);
          assetChanges.push({ path: target, content: file.bytes });
          if (file.ref !== undefined) fileRefs.set(file.ref, target);
        }
        break;
    }
  }
  // Links between the batch's pages and files resolve once every page has its file.
  const fileOf = assignFiles(edits.pages);
  const fileById = new Map(revision.files.map((file) => [file.id, file.path]));
  const includeById = new Map(revision.reusableContents.map((content) => [content.id, content.path]));
  for (const page of everyPage(edits.pages)) {
    const own = fileOf.get(page.id);
    if (!page.dirty || page.body === undefined || !own) continue;
    const from = path.posix.dirname(own);
    const relative = (target: string) => path.posix.relative(from, target) || path.posix.basename(target);
    const resolve = (target: string): string | undefined => {
      const [bare = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const suffix = anchor !== undefined ? `#${anchor}` : '';
      const local = /^\.\/(.+?)(\.md)?$/.exec(bare)?.[1];
      const pageId = (local !== undefined ? pageRefs.get(local) : undefined) ?? /^\/pages\/([A-Za-z0-9_-]+)$/.exec(bare)?.[1];
      const pageFile = pageId !== undefined ? fileOf.get(pageId) : undefined;
      if (pageFile) return `${relative(pageFile)}${suffix}`;
      const asset = (bare.startsWith('./') ? fileRefs.get(bare.slice(2)) : undefined) ?? fileById.get(/^\/files\/([A-Za-z0-9_-]+)$/.exec(bare)?.[1] ?? '');
      if (asset) return relative(asset);
      const included = includeById.get(/^\/reusable-contents\/([A-Za-z0-9_-]+)$/.exec(bare)?.[1] ?? '');
      return included ? relative(included) : undefined;
    };
    page.body = page.body
      .replace(/\]\(\s*(<[^>]*>|[^)\s]+)((?:\s+"[^"]*")?\s*)\)/g, (whole, target: string, rest: string) => {
        const resolved = resolve(target.replace(/^<|>$/g, ''));
        return resolved === undefined ? whole : `](${resolved}${rest})`;
      })
      // The targets of GitBook blocks: {% content-ref url="…" %}, {% file src="…" %}, {% include "…" %}.
      .replace(/^(\s*\{%[^\n]*?\s(?:url|src)=|\s*\{%\s*include\s+)"([^"]*)"/gm, (whole, head: string, target: string) => {
        const resolved = resolve(target);
        return resolved === undefined ? whole : `${head}"${resolved}"`;
      });
  }
  const { changes } = treeChanges(revision, edits.pages, fileOf);
  return { changes: [...changes, ...assetChanges], outcomes: [...outcomes.values()], insertedFiles: assetChanges.map((change) => change.path) };
}

/**
 * The batch with every page's content as markdown checked for nesting, converted and checked in
 * the worker pool (engine/markdown/offThread.ts) before the space's write lock is taken: input
 * that nests too deep, can't be written as markdown or takes past the pool's time limit is
 * refused, naming its change, and nothing is written.
 */
async function checkedDocuments(operations: ContentOperation[]): Promise<ContentOperation[]> {
  return Promise.all(
    operations.map(async (operation, index) => {
      if ((operation.operation !== 'insert_page' && operation.operation !== 'update_page') || !operation.document) return operation;
      const where = `changes[${index}] (${operation.operation})`;
      const document = operation.document;
      try {
        if ('markdown' in document) {
          await checkMarkdownDepth(document.markdown, `${where}: the markdown`);
          return operation;
        }
        if (!('document' in document)) return operation;
        return { ...operation, document: { markdown: await convertDocumentToMarkdown(document.document, `${where}: the document`) } };
      } catch (error) {
        if (error instanceof WorkTooCostlyError) throw error;
        if (error instanceof MarkdownTooDeepError) throw new InvalidChangeError('', `${where}: ${error.message}`);
        throw new InvalidChangeError('', `${where}: the document can't be written as markdown: ${(error as Error).message}`);
      }
    }),
  );
}
