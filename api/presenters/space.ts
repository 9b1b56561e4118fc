import type { SpaceView } from '../../domain/spaces/index.js';
import type { ChangeRequestCounts } from '../../storage/changeRequests.js';
import type { MemberRole } from '../../storage/members.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import { spacePermissions } from '../policies/spaceRoles.js';
import type { Urls } from '../urls.js';

/** `revision`: the commit the space's primary branch points at; `openComments`: its open comments outside change requests. */
export function presentSpace(space: SpaceRecord, revision: string, role: MemberRole | undefined, urls: Urls, changeRequests: ChangeRequestCounts = { total: 0, open: 0, draft: 0 }, openComments = 0) {
  return {
    object: 'space' as const,
    id: space.id,
    title: space.title,
    emoji: space.emoji ?? '',
    visibility: space.visibility,
    createdAt: space.createdAt,
    updatedAt: space.updatedAt,
    ...(space.deletedAt ? { deletedAt: space.deletedAt } : {}),
    editMode: space.editMode,
    mergeRules: space.mergeRules,
    urls: { location: urls.space(space.id), app: urls.spaceApp(space.id) },
    organization: space.organizationId,
    ...(space.collectionId ? { parent: space.collectionId } : {}),
    ...(space.language ? { language: space.language } : {}),
    revision,
    defaultLevel: space.defaultLevel,
    comments: openComments,
    changeRequests: changeRequests.total,
    changeRequestsOpen: changeRequests.open,
    changeRequestsDraft: changeRequests.draft,
    permissions: spacePermissions(role),
  };
}

/** A space read with its revision and counts (domain/spaces: readSpaceView). */
export function presentSpaceView(view: SpaceView, role: MemberRole | undefined, urls: Urls) {
  return presentSpace(view.space, view.revision, role, urls, view.changeRequests, view.openComments);
}
