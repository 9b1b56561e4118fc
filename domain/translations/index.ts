/** Translations: runs that translate a space into another, page by page, with a pluggable translator. */
export * from './translations.js';
export * from './translators.js';
export * from './glossary.js';
