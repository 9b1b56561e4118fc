/**
 * Documents as HTML: one renderer of a page's Document as a hast tree, shared by the published
 * sites, the PDF export and the web app. What links lead to is the caller's (DocumentLinks).
 */
export { codeHighlighting, documentText, documentTree, pageHighlightBudget, type DocumentLinks, type OutlineEntry } from './documentTree.js';
export { el, safeHref, text, type Child } from './hast.js';
export { openapiSpecKey } from './openapiSpecKey.js';
export { markdownOfBlocks, openPageBlocks } from './editor/offThread.js';
