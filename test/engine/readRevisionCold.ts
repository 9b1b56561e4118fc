// Reads a revision in a process of its own (caches empty, as after a restart) and prints its pages' markdown by path.
import { allPages } from '../../engine/allPages.js';
import { readRevision } from '../../engine/readRevision.js';
import { openRepository } from '../../engine/repository.js';

const [gitdir, commit] = process.argv.slice(2);
const revision = await readRevision(openRepository(gitdir!), commit!);
console.log(JSON.stringify(Object.fromEntries(allPages(revision.pages).map((page) => [page.path, page.markdown]))));
