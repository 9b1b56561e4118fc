// Finds the temporal CLI (QUIRE_TEMPORAL_CLI, PATH, the project's cache) or builds the pinned
// version with Go, and prints its path. `npm test` runs it first; `npm start` does the same itself.
import { ensureTemporalCli } from '../workflows/runtime/temporalCli.js';

console.log(await ensureTemporalCli());
