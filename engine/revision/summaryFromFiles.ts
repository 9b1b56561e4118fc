import type { SummaryEntry, SummaryGroup } from '../layout/summary.js';
import type { TreeItem } from '../internal/listTree.js';

/** Without SUMMARY.md: README.md first, then the other markdown files, folders nested under their README. */
export function summaryFromFiles(listing: Map<string, TreeItem>): SummaryGroup[] {
  const markdown = [...listing.keys()].filter((path) => path.endsWith('.md') && !path.startsWith('.gitbook/') && path !== 'SUMMARY.md').sort();
  const entriesIn = (folder: string): SummaryEntry[] => {
    const here = markdown.filter((path) => path.startsWith(folder) && !path.slice(folder.length).includes('/'));
    const readme = here.filter((path) => path.slice(folder.length) === 'README.md');
    const others = here.filter((path) => path.slice(folder.length) !== 'README.md');
    const subfolders = [
      ...new Set(
        markdown
          .filter((path) => path.startsWith(folder))
          .map((path) => path.slice(folder.length).split('/'))
          .filter((parts) => parts.length > 1)
          .map((parts) => parts[0]!),
      ),
    ];
    return [
      ...(folder === '' ? readme : []).map((path) => ({ title: '', target: path, children: [] })),
      ...others.map((path) => ({ title: '', target: path, children: [] })),
      ...subfolders.flatMap((name) => {
        const children = entriesIn(`${folder}${name}/`);
        const own = listing.has(`${folder}${name}/README.md`);
        return own ? [{ title: '', target: `${folder}${name}/README.md`, children: children.filter((c) => c.target !== `${folder}${name}/README.md`) }] : children;
      }),
    ];
  };
  return [{ title: null, entries: entriesIn('') }];
}
