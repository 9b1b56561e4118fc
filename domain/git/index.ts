/** Spaces as git remotes: smart-HTTP exchanges with the system git, and what a push may land. */
export { startGitExchange, type GitExchange } from './gitRemote.js';
export type { Pusher } from './pushes.js';
export { advertisementStart, checkGitBinary, closeHookChannel, type GitService } from '../../engine/index.js';
export { repackSpace, repackSpacesOverThreshold, type RepackOutcome } from './maintenance.js';
export { readGitSync, requestGitSync, runGitSync, withoutCredentials, type GitSyncJob, type GitSyncRequest } from './gitSync.js';
