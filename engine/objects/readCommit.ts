import type { Repository } from '../repository.js';
import { readObject } from './readObject.js';

export interface CommitObject {
  tree: string;
  parents: string[];
  /** The committer's time, in seconds since the epoch. */
  committedAt: number;
  message: string;
  /** Who wrote it, as the commit's `author` line names them. */
  author: { name: string; email: string };
}

/** A commit's tree, parents, time, message and author. */
export async function readCommit(repo: Repository, oid: string): Promise<CommitObject> {
  const { type, data } = await readObject(repo, oid);
  if (type !== 'commit') throw new Error(`object ${oid} is a ${type}, not a commit`);
  const text = data.toString('utf8');
  const headerEnd = text.indexOf('\n\n');
  const headers = (headerEnd === -1 ? text : text.slice(0, headerEnd)).split('\n');
  const commit: CommitObject = { tree: '', parents: [], committedAt: 0, message: headerEnd === -1 ? '' : text.slice(headerEnd + 2), author: { name: '', email: '' } };
  for (const line of headers) {
    if (line.startsWith('tree ')) commit.tree = line.slice(5);
    else if (line.startsWith('parent ')) commit.parents.push(line.slice(7));
    else if (line.startsWith('author ')) {
      const person = /^author (.*) <([^>]*)> \d+ [+-]\d{4}$/.exec(line);
      if (person) commit.author = { name: person[1]!, email: person[2]! };
    } else if (line.startsWith('committer ')) commit.committedAt = Number(/ (\d+) [+-]\d{4}$/.exec(line)?.[1] ?? 0);
  }
  return commit;
}
