import { el, type Child } from '../../domain/documents/index.js';
import type { FileChange, HistoryEntry, PageChange, Revision } from '../../engine/index.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import { pageChangeDetails } from './changeRequestPages.js';
import { historyPath, pageHistoryPath, pagePath, revisionPath, spacePath } from './paths.js';
import { breadcrumbs } from './layout.js';
import { sourceDiff } from './sourceDiff.js';

const when = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 16).replace('T', ' ');
const subject = (message: string) => message.split('\n')[0]!.trim() || '(no message)';

/** The space's history from git (or one page's: `page`): each commit of its primary branch's first-parent line, newest first. */
export function historyContent(space: SpaceRecord, history: { entries: HistoryEntry[]; next?: string }, page?: { id: string; title: string }): Child[] {
  const more = page ? `${pageHistoryPath(space.id, page.id)}?from=` : `${historyPath(space.id)}?from=`;
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'), page ? el('a', { href: pagePath(space.id, page.id) }, page.title) : null),
    el('h1', {}, page ? `History of ${page.title}` : 'History'),
    history.entries.length === 0 ? el('p', { className: ['muted'] }, 'No commit changed it yet.') : null,
    el(
      'ol',
      { className: ['list'] },
      history.entries.map((entry) =>
        el(
          'li',
          {},
          el('a', { href: revisionPath(space.id, entry.commit) }, subject(entry.message)),
          el('span', { className: ['muted'] }, ` · ${entry.author.name || entry.author.email} · ${when(entry.committedAt)} · ${entry.commit.slice(0, 7)}`),
        ),
      ),
    ),
    history.next ? el('p', {}, el('a', { href: `${more}${history.next}` }, 'Older commits')) : null,
  ];
}

/** One revision: its commit (author, date, message) and what it changed from its first parent, with a source diff per page. */
export function revisionContent(
  space: SpaceRecord,
  input: { revision: Revision; author: { name: string; email: string }; changes: { pages: PageChange[]; files: FileChange[] }; sources: Map<string, { before: string; after: string }> },
): Child[] {
  const { revision, changes } = input;
  return [
    breadcrumbs(el('a', { href: spacePath(space.id) }, space.title || 'Untitled space'), el('a', { href: historyPath(space.id) }, 'History')),
    el('h1', {}, subject(revision.message)),
    el('p', { className: ['muted'] }, `${input.author.name || input.author.email} · ${revision.createdAt.slice(0, 16).replace('T', ' ')} · ${revision.commit}`),
    revision.message.includes('\n') ? el('pre', { className: ['message'] }, revision.message.slice(revision.message.indexOf('\n') + 1).trim()) : null,
    revision.parents.length === 0 ? el('p', { className: ['muted'] }, 'The space’s first revision.') : null,
    el(
      'section',
      { ariaLabelledBy: 'changes-title' },
      el('h2', { id: 'changes-title' }, `Changes (${changes.pages.length} page${changes.pages.length === 1 ? '' : 's'}, ${changes.files.length} file${changes.files.length === 1 ? '' : 's'})`),
      changes.pages.map((change) => {
        const source = input.sources.get(change.page.id);
        return pageChangeDetails(change, source ? sourceDiff(source.before, source.after) : undefined);
      }),
      changes.files.length
        ? el(
            'ul',
            {},
            changes.files.map((change) => el('li', {}, `${change.file.name}: ${change.type.replace('file_', '')}`)),
          )
        : null,
    ),
  ];
}
