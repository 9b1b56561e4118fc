/** Spaces: creating, copying, moving, deleting and restoring them, writing and reading their content, and their search index. */
export * from './applyTemplate.js';
export * from './collections.js';
export * from './mergeRules.js';
export * from './moveItem.js';
export * from './readSpaceFile.js';
export * from './readSpaceRevision.js';
export * from './searchIndex.js';
export * from './spaceDeletion.js';
export * from './spaces.js';
export * from './transferItem.js';
export * from './writeContent.js';
export * from './spaceView.js';
export * from './pageDocuments.js';
export * from './pageMetaLinks.js';
export * from './reusableContents.js';
export * from './stableRefs.js';
export * from './primaryHead.js';
