// Run as its own OS process by the engine tests: commits `count` files named after `name`,
// printing `ack <commit>` once each commit is on the branch (acknowledged, so it must survive).
import { commitToBranchHead } from '../../engine/commitChanges.js';
import { openRepository, primaryBranch } from '../../engine/repository.js';

const [gitdir = '', name = 'writer', count = '1'] = process.argv.slice(2);
const repo = openRepository(gitdir);
for (let i = 0; i < Number(count); i += 1) {
  const { commit } = await commitToBranchHead({
    repo,
    branch: primaryBranch,
    changes: [
      { path: `writers/${name}/${i}.md`, content: `# ${name} ${i}\n` },
      { path: 'shared.md', content: `last written by ${name} ${i}\n` },
    ],
    message: `${name} ${i}`,
    author: { name, email: `${name}@example.com` },
  });
  process.stdout.write(`ack ${commit}\n`);
}
