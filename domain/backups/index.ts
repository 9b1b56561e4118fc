/** Backups of a whole deployment, and restoring one into an empty DATA_DIR (docs/operations.md, "Backups"). */
export * from './backup.js';
