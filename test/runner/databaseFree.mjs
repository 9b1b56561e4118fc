// The suite folders that never open a database: npm test runs them on its SQLite pass only, since
// a second pass with PostgreSQL would run the same code again (test/checks/databaseFree.test.ts
// checks their suites import no server, database or storage module).
export const databaseFreeFolders = ['engine', 'domain', 'runner'];
