/** Support conversations: ingest with redaction, issues extracted from them, and their clusters. */
export * from './conversations.js';
export { closeEmbeddingThread } from './embedding.js';
