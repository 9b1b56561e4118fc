import { closePacksIn } from '../objects/packs.js';
import type { Repository } from '../repository.js';

/**
 * The repository as a push's hooks see it: `git receive-pack` keeps the pushed objects in a
 * quarantine folder (GIT_QUARANTINE_PATH) until they are accepted, and moves them in only then.
 * Reads through the view find them there first.
 */
export const withQuarantine = (repo: Repository, quarantine: string): Repository => ({ ...repo, quarantine });

/** Closes the quarantine's pack files once the push is decided (git removes or moves the folder). */
export const leaveQuarantine = (quarantine: string) => closePacksIn(quarantine);
