/** Imports: a website's pages, or uploaded markdown, HTML and zip files, written into a space by a job. */
export * from './convert.js';
export * from './gather.js';
export * from './runs.js';
export * from './uploads.js';
