import type { CollectionRecord } from '../../storage/collections.js';
import type { MemberRole } from '../../storage/members.js';
import { collectionPermissions } from '../policies/spaceRoles.js';
import type { RoleOrGuest } from '../policies/roles.js';
import type { Urls } from '../urls.js';

export function presentCollection(collection: CollectionRecord, role: MemberRole | undefined, organizationRole: RoleOrGuest, urls: Urls) {
  return {
    object: 'collection' as const,
    id: collection.id,
    title: collection.title,
    ...(collection.description !== null ? { description: collection.description } : {}),
    organization: collection.organizationId,
    ...(collection.parentId ? { parent: collection.parentId } : {}),
    defaultLevel: collection.defaultLevel,
    urls: { location: urls.collection(collection.id), app: urls.collectionApp(collection.id) },
    permissions: collectionPermissions(role, organizationRole),
  };
}
