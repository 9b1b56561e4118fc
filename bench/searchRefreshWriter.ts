// The writer of `bench search-refresh`, in a process of its own: its commits' work must not hold
// the event loop that times the reads (which it did in the bench's own process, so part of what
// the figure charged to Quire was the bench's). One-page commits to the primary branch of a
// 10,000-page space, each followed by a search that must find it, until told to stop; then it
// reports the commits made and each search's milliseconds.
import http from 'node:http';
import { commitToBranchHead } from '../engine/commitChanges.js';
import { renderPageFile } from '../engine/layout/pageFile.js';
import { primaryBranch } from '../engine/repository.js';
import { openSpaceRepository } from '../engine/spaceRepositories.js';
import { body, pageNumber } from './changeRequests.js';

const [dataDir, spaceId, serverUrl, token] = process.argv.slice(2) as [string, string, string, string];
const author = { name: 'Bench', email: 'bench@example.com' };

const found = (word: string) =>
  new Promise<number>((resolve, reject) =>
    http
      .get(`${serverUrl}/v1/spaces/${spaceId}/search?query=${word}`, { headers: { authorization: `Bearer ${token}` }, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          response.statusCode === 200 ? resolve((JSON.parse(Buffer.concat(chunks).toString('utf8')).items as unknown[]).length) : reject(new Error(`search: ${response.statusCode}`)),
        );
      })
      .on('error', reject),
  );

let writing = true;
process.on('message', () => {
  writing = false;
});
const repo = openSpaceRepository(dataDir, spaceId);
process.send!('ready');
const searches: number[] = [];
let commits = 0;
for (let i = 0; writing; i += 1) {
  const n = pageNumber((i * 97) % 9000);
  const file = `section-${Math.floor((n - 1) / 10)}/page-${(n - 1) % 10}.md`;
  await commitToBranchHead({
    repo,
    branch: primaryBranch,
    changes: [{ path: file, content: renderPageFile({ meta: { pageId: `p${n}` }, body: body(n, `wordround${i} `) }) }],
    message: `Edit ${i}`,
    author,
  });
  commits += 1;
  const started = performance.now();
  if ((await found(`wordround${i}`)) === 0) throw new Error(`the edit of commit ${i} is not found by search`);
  searches.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, 50));
}
process.send!({ commits, searches }, () => process.exit(0));
