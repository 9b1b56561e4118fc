/** Site insights: what readers of a site view, search and ask, counted per day without identifying anyone. */
export * from './aggregate.js';
export * from './events.js';
export * from './recorder.js';
export * from './summary.js';
export * from './readerPages.js';
export * from './segments.js';
