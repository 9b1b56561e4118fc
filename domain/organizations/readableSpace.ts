import type { Database } from '../../storage/db.js';
import { findContentGrants } from '../../storage/contentGrants.js';
import { findMembershipRole } from '../../storage/members.js';
import { findSpace, type SpaceRecord } from '../../storage/spaces.js';
import { roleOnSpace } from './access.js';

/**
 * The space, when it is one of the organization's and this user can read it now: what every job
 * that reads a space on someone's behalf (translations, PDFs, duplicates) checks when it is asked
 * for and again when it runs. A space in the bin, of another organization, or out of the user's
 * reach is undefined alike, so an answer never tells them apart.
 */
export async function readableSpace(db: Database, organizationId: string, spaceId: string, userId: string): Promise<SpaceRecord | undefined> {
  const space = await findSpace(db, spaceId);
  if (!space || space.organizationId !== organizationId) return undefined;
  const membership = await findMembershipRole(db, organizationId, userId);
  if (!membership || membership.disabled) return undefined;
  return (await roleOnSpace(db, membership.role, space, await findContentGrants(db, userId))) ? space : undefined;
}
