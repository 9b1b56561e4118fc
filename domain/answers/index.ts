/** Answers for readers: a question answered from the search index's best sections, with the pages cited. */
export * from './ask.js';
export { nothingFound, passageOf } from './compose.js';
export { questionWords } from './sources.js';
export * from './siteQuestions.js';
