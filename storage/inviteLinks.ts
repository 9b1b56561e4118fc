import type { Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import type { MemberRole } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

/** What a link invites to: the organization itself, or one space or collection in it. */
export type InviteTarget = { kind: 'organization' } | { kind: 'space'; id: string } | { kind: 'collection'; id: string };

export interface InviteLinkRecord {
  id: string;
  organizationId: string;
  target: InviteTarget;
  role: MemberRole | null;
  createdBy: string;
  createdAt: string;
}

interface InviteRow {
  id: string;
  organization_id: string;
  target_kind: InviteTarget['kind'];
  target_id: string | null;
  role: MemberRole | null;
  created_by: string;
  created_at: string;
}

function toInvite(row: InviteRow): InviteLinkRecord {
  const target: InviteTarget = row.target_kind === 'organization' ? { kind: 'organization' } : { kind: row.target_kind, id: row.target_id ?? '' };
  return { id: row.id, organizationId: row.organization_id, target, role: row.role, createdBy: row.created_by, createdAt: row.created_at };
}

export async function insertInviteLink(db: Queryable, input: { organizationId: string; target: InviteTarget; role: MemberRole | null; createdBy: string }): Promise<InviteLinkRecord> {
  const id = newId();
  await db.run('INSERT INTO invite_links (id, organization_id, target_kind, target_id, role, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id,
    input.organizationId,
    input.target.kind,
    'id' in input.target ? input.target.id : null,
    input.role,
    input.createdBy,
    now(),
  ]);
  return getInviteLink(db, input.organizationId, id);
}

export async function findInviteLink(db: Queryable, organizationId: string, id: string): Promise<InviteLinkRecord | undefined> {
  const row = await db.get<InviteRow>('SELECT * FROM invite_links WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return row && toInvite(row);
}

export async function getInviteLink(db: Queryable, organizationId: string, id: string): Promise<InviteLinkRecord> {
  const invite = await findInviteLink(db, organizationId, id);
  if (!invite) throw notFound(`Invite link ${id}`);
  return invite;
}

export async function listInviteLinks(db: Queryable, organizationId: string, request: PageRequest): Promise<Page<InviteLinkRecord>> {
  const page = await paginate<InviteRow>(
    db,
    { select: '*', from: 'invite_links', where: 'organization_id = ?', params: [organizationId], sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    request,
  );
  return mapPage(page, toInvite);
}

export async function updateInviteLinkRole(db: Queryable, organizationId: string, id: string, role: MemberRole | null): Promise<InviteLinkRecord> {
  await db.run('UPDATE invite_links SET role = ? WHERE organization_id = ? AND id = ?', [role, organizationId, id]);
  return getInviteLink(db, organizationId, id);
}

export async function deleteInviteLink(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM invite_links WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return changes > 0;
}
