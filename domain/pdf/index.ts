/** PDF exports of a change request: what to render, and the renderer. */
export * from './pdfExports.js';
export { chromiumPath, closeSharedBrowser } from './browser.js';
