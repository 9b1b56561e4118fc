/** A commit's author or committer, as git records them. */
export interface Signature {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** Minutes west of UTC, as JavaScript's `getTimezoneOffset` (0: UTC). */
  timezoneOffset: number;
}

/** `+0000`-style, as git writes an offset (isomorphic-git's sign rules, -0 included). */
function formatOffset(minutesWest: number): string {
  const east = minutesWest === 0 ? minutesWest : -minutesWest;
  const sign = Math.sign(east) || (Object.is(east, -0) ? -1 : 1);
  const minutes = Math.abs(minutesWest);
  return `${sign === -1 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

const signature = (who: Signature) => `${who.name} <${who.email}> ${who.timestamp} ${formatOffset(who.timezoneOffset)}`;

/**
 * A commit object's content, byte for byte as git and isomorphic-git write one: its headers, a
 * blank line, and the message without carriage returns, leading blank lines or trailing ones but one.
 */
export function commitContent(commit: { tree: string; parents: readonly string[]; author: Signature; committer: Signature; message: string }): Buffer {
  const headers = [`tree ${commit.tree}`, ...commit.parents.map((parent) => `parent ${parent}`), `author ${signature(commit.author)}`, `committer ${signature(commit.committer)}`];
  const message = `${commit.message.replace(/\r/g, '').replace(/^\n+/, '').replace(/\n+$/, '')}\n`;
  return Buffer.from(`${headers.join('\n')}\n\n${message}`, 'utf8');
}
