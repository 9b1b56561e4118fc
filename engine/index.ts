/**
 * The content engine: spaces as bare git repositories in GitBook's Git Sync layout. Writes go
 * through isomorphic-git's object writing and our own trees, commits and ref updates; reads go
 * through our own loose-object and pack reader; the git remote hands pack work to the system `git`.
 * Code outside engine/ imports this file only (lint: eslint.config.js); tests may reach further.
 */

// Repositories: where a space's bare repository is, its branches and refs.
export { branchRef, primaryBranch, type Repository } from './repository.js';
export { localSpaceRepositories } from './spaceRepositories.js';
export { bundleSpaceRepository, localSpaceIds, restoreSpaceRepository } from './repositoryBackup.js';
export { readBranch } from './readBranch.js';
export { resolveRevision } from './resolveRevision.js';
export { withSettledBranch } from './settledBranch.js';
export { placeMissingBranch, placingNewBranch } from './placeNewBranch.js';
export { withRepositoryLock } from './lock.js';
export { compareAndSwapBranch } from './compareAndSwapBranch.js';

// Reading a revision: its pages and files in the Git Sync layout, links, changes, history.
export { assetsFolder, readRevision, type Revision, type RevisionFile, type RevisionPage, type RevisionReusableContent } from './readRevision.js';
export { allPages } from './allPages.js';
export { findPageById, findPageByPath } from './findPage.js';
export { everyPage } from './pageTree.js';
export { fileSizes } from './fileSizes.js';
export { listFiles } from './listFiles.js';
export { listPaths } from './listPaths.js';
export { readFileBytes } from './readFileBytes.js';
export { pagesByFile, resolveLink, resolveWrittenRef, type ContentRef } from './resolveLink.js';
export { readRevisionLinks, type LinkUse } from './pageLinks.js';
export { revisionChanges, type FileChange, type PageChange } from './revisionChanges.js';
export { lastChangeOf } from './lastChange.js';
export { firstParentHistory, pathHistory, type HistoryEntry } from './history.js';
export { movedPagePath } from './movedPage.js';
export { slugify } from './slugify.js';
export { readCommit } from './objects/readCommit.js';
export { hasObject } from './objects/readObject.js';
export { objectId } from './objects/hashObject.js';
export { settlePageFilesSnapshots } from './revision/pageFilesSnapshot.js';

// Writing: changes become one commit, merges become merge commits.
export type { Change } from './change.js';
export { commitChanges, type Author } from './commitChanges.js';
export { commitOnHead, groupCommitStats } from './commitOnHead.js';
export { commitTree } from './commitTree.js';
export { PageEdits, type PageContent, type PageFields } from './pageEdits.js';
export { assignFiles, treeChanges } from './pageTreeFiles.js';
export { mergeBranch, type MergeConflict } from './mergeBranch.js';
export { findTemplate, templateChanges, type Template } from './templates.js';

// Markdown and Documents (the heavy conversions run in the worker pool).
export type { Document, DocumentNode } from './markdown/toDocument.js';
export { documentToMarkdown, type JsonDocument } from './markdown/fromDocument.js';
export { checkMarkdownDepth, convertDocumentToMarkdown, convertMarkdownToDocument, linkSpansOffThread } from './markdown/offThread.js';
export { splitBlocks, type Segment } from './markdown/blocks.js';
export { parseWithinDepth } from './markdown/depth.js';
export { splitTitleHeading } from './markdown/titleHeading.js';
export { editableBlocks, UnknownBlockError, writeBlocks, writeKeyedBlocks, type EditableBlock, type WrittenBlock } from './markdown/editableBlocks.js';
export { sameDocumentNode } from './markdown/sameDocument.js';
export { captionOf } from './markdown/documentBlocks.js';
export { readPageMetadata } from './html/offThread.js';
export type { PageMetadata } from './html/pageMetadata.js';

// The git remote and Git Sync: system git, push checks, repacks.
export { advertisementStart, checkGitBinary, startGitService, type GitService } from './git/gitService.js';
export { closeHookChannel, registerPush, type PushHandlers, type RefResult, type RefUpdate } from './git/hookServer.js';
export { checkPushedTree } from './git/checkPushedTree.js';
export { leaveQuarantine, withQuarantine } from './git/quarantine.js';
export { isValidRefName } from './git/refNames.js';
export { isAncestor, mergeBase } from './git/ancestry.js';
export { deleteOwnRef, fetchRemoteRef, pushToRemote, RemoteGitError, type PinnedAddress } from './git/remoteGit.js';
export { looseObjectCount, repackRepository } from './git/repack.js';
export { firstParentSubjects, gitbookRoot, keepRevision, subtreeAt, withSubtree, writeCommit } from './git/syncTrees.js';

// Runtime: worker threads, the search indexer's thread, cache budgets.
export { closeWorkerPool, configureWorkerPool, listenedPool, runInPool, siblingModule, workerPoolStats, workerTaskLimitMs } from './runtime/workerPool.js';
export { searchIndexChanges, SearchIndexerStoppedError, stopSearchIndexer } from './runtime/searchIndexer.js';
export { BudgetedCache, cacheStats, configureCacheBudget, ownedBytes } from './runtime/cacheBudget.js';
export { Lru } from './runtime/lru.js';

// Errors, with stable codes.
export {
  EngineError,
  InvalidChangeError,
  MarkdownTooDeepError,
  RefConflictError,
  RepositoryBusyError,
  RepositoryElsewhereError,
  RevisionNotFoundError,
  WorkTooCostlyError,
  type EngineErrorCode,
} from './errors/index.js';
