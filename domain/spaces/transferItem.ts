import { findCollection, listCollectionTreeItems, transferCollectionTree, type CollectionRecord } from '../../storage/collections.js';
import { revokeGrantsOn } from '../../storage/contentGrants.js';
import { removeSiteSpacesOfSpace } from '../../storage/siteStructure.js';
import { findSpace, updateSpace, type SpaceRecord } from '../../storage/spaces.js';
import { alreadyThere, missing, preconditionFailed } from '../common/errors.js';
import type { MovableItem } from './moveItem.js';
import { resolvePosition } from '../common/positions.js';
import type { ContentDeps } from '../common/deps.js';
import { announceToRenderer } from '../common/rendererRevalidation.js';

/**
 * Moves a space, or a top-level collection with everything in it, to the top level of another
 * organization, last among its items. Who may do it is the route's policy (admin of both). What the
 * old organization gave the moved items stays there: they leave its sites (a default's place goes
 * to a neighbour, as when a space is purged) and the grants its invite links gave on them go.
 */
export function transferItem(deps: Pick<ContentDeps, 'db' | 'jobs'>, movable: { kind: 'space'; item: SpaceRecord }, organizationId: string): Promise<SpaceRecord>;
export function transferItem(deps: Pick<ContentDeps, 'db' | 'jobs'>, movable: { kind: 'collection'; item: CollectionRecord }, organizationId: string): Promise<CollectionRecord>;
export async function transferItem(deps: Pick<ContentDeps, 'db' | 'jobs'>, movable: MovableItem, organizationId: string): Promise<SpaceRecord | CollectionRecord> {
  const { kind, item } = movable;
  if (organizationId === item.organizationId) throw alreadyThere(`The ${kind} is already in that organization`);
  if (kind === 'collection' && item.parentId) throw preconditionFailed('A collection inside another can’t be transferred: move it to the top level first');
  const { transferred, sites } = await deps.db.transaction(async (tx) => {
    const current = kind === 'space' ? await findSpace(tx, item.id) : await findCollection(tx, item.id);
    if (!current) throw missing(`${kind === 'space' ? 'Space' : 'Collection'} ${item.id} not found`);
    const position = (await resolvePosition(tx, organizationId, null, { kind, id: item.id, parentId: null }, undefined)) ?? 1;
    const moved = kind === 'space' ? { spaceIds: [item.id], collectionIds: [] } : await listCollectionTreeItems(tx, item.id);
    const sites = new Set<string>();
    for (const spaceId of moved.spaceIds) for (const siteId of await removeSiteSpacesOfSpace(tx, spaceId)) sites.add(siteId);
    await revokeGrantsOn(tx, moved);
    const transferred = kind === 'space' ? await updateSpace(tx, item.id, { organizationId, collectionId: null, position }) : await transferCollectionTree(tx, item.id, organizationId, position);
    return { transferred, sites };
  });
  for (const siteId of sites) announceToRenderer(deps, { siteId });
  return transferred;
}
