/** Change requests: branches of a space, their content, reviews, merge rules and merges. */
export * from './changeRequestContent.js';
export * from './changeRequestReviews.js';
export * from './changeRequests.js';
export { ruleSkippedByDirectChange } from './changeRequestMergeRules.js';
export * from './mergeChangeRequest.js';
export * from './changeRequestView.js';
export * from './reviewViews.js';
export * from './describeChangeRequest.js';
export * from './editedBranch.js';
export * from './editPageSource.js';
export * from './editPageBlocks.js';
export * from './pageTreeMoves.js';
