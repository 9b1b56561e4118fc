import { listPaths, type Template, templateChanges } from '../../engine/index.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import type { UserRecord } from '../../storage/users.js';
import type { ContentDeps } from '../common/deps.js';
import { writeContent } from './writeContent.js';

/** Replaces a space's content with a built-in template's, as one new commit. */
export function applyTemplate(deps: ContentDeps, input: { space: SpaceRecord; template: Template; author: UserRecord; branch?: string }): Promise<{ commit: string }> {
  const added = templateChanges(input.template);
  const addedPaths = new Set(added.map((change) => change.path));
  return writeContent(deps, {
    space: input.space,
    branch: input.branch,
    message: `Apply the ${input.template.title} template`,
    author: input.author,
    changes: async (repo, head) => {
      const existing = head ? await listPaths(repo, head) : [];
      return [...existing.filter((path) => !addedPaths.has(path)).map((path) => ({ path, remove: true as const })), ...added];
    },
  });
}
