import type { MemberRole } from '../../storage/members.js';
import type { SpaceRecord } from '../../storage/spaces.js';
import { spacePermissions } from '../policies/spaceRoles.js';
import type { Urls } from '../urls.js';

/** `revision`: the commit the space's primary branch points at. */
export function presentSpace(space: SpaceRecord, revision: string, role: MemberRole | undefined, urls: Urls) {
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
    // Comments and change requests arrive with their issues; until then a space has none.
    comments: 0,
    changeRequests: 0,
    changeRequestsOpen: 0,
    changeRequestsDraft: 0,
    permissions: spacePermissions(role),
  };
}
