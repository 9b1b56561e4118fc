import type { Dialect } from './dialect.js';
import type { Database, Queryable, Transaction } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import type { MemberRole } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export type MergeRules = { type: 'none' } | { type: 'rules'; rules: Array<Record<string, unknown>> };
export type DefaultContent = { type: 'site'; site: string };

export interface OrganizationRecord {
  id: string;
  title: string;
  createdAt: string;
  createdBy: string;
  emailDomains: string[];
  hostname: string | null;
  type: 'business' | 'community';
  useCase: string | null;
  communityType: string | null;
  defaultRole: MemberRole | null;
  defaultContent: DefaultContent | null;
  logo: string | null;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  mergeRules: MergeRules;
}

interface OrganizationRow {
  id: string;
  title: string;
  created_at: string;
  created_by: string;
  email_domains: string;
  hostname: string | null;
  type: 'business' | 'community';
  use_case: string | null;
  community_type: string | null;
  default_role: MemberRole | null;
  default_content: string | null;
  logo: string | null;
  sso: number;
  ai: number;
  invite_links: number;
  merge_rules: string;
}

const ownColumns = `organizations.id, organizations.title, organizations.created_at, organizations.created_by,
  organizations.hostname, organizations.type, organizations.use_case, organizations.community_type,
  organizations.default_role, organizations.default_content, organizations.logo, organizations.sso,
  organizations.ai, organizations.invite_links, organizations.merge_rules`;

/** The organization's columns and its email domains in order, as a JSON array. */
const columnsOf: Record<Dialect, string> = {
  sqlite: `${ownColumns},
  (SELECT json_group_array(domain) FROM (SELECT domain FROM organization_email_domains d
     WHERE d.organization_id = organizations.id ORDER BY d.position)) AS email_domains`,
  postgres: `${ownColumns},
  (SELECT COALESCE(json_agg(domain ORDER BY d.position), '[]')::text FROM organization_email_domains d
     WHERE d.organization_id = organizations.id) AS email_domains`,
};

function toOrganization(row: OrganizationRow): OrganizationRecord {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    createdBy: row.created_by,
    emailDomains: JSON.parse(row.email_domains) as string[],
    hostname: row.hostname,
    type: row.type,
    useCase: row.use_case,
    communityType: row.community_type,
    defaultRole: row.default_role,
    defaultContent: row.default_content ? (JSON.parse(row.default_content) as DefaultContent) : null,
    logo: row.logo,
    sso: row.sso === 1,
    ai: row.ai === 1,
    inviteLinks: row.invite_links === 1,
    mergeRules: JSON.parse(row.merge_rules) as MergeRules,
  };
}

/** Inserts the organization row only; see domain/organizations: createOrganization for its first admin. */
export async function insertOrganization(db: Queryable, input: { title: string; createdBy: string }): Promise<OrganizationRecord> {
  const id = newId();
  await db.run("INSERT INTO organizations (id, title, created_at, created_by, default_role) VALUES (?, ?, ?, ?, 'read')", [id, input.title, now(), input.createdBy]);
  return getOrganization(db, id);
}

export async function findOrganization(db: Queryable, id: string): Promise<OrganizationRecord | undefined> {
  const row = await db.get<OrganizationRow>(`SELECT ${columnsOf[db.dialect]} FROM organizations WHERE id = ? AND deleted_at IS NULL`, [id]);
  return row && toOrganization(row);
}

/** The tables findOrganization reads. */
export const organizationReads = ['organizations', 'organization_email_domains'] as const;

/** findOrganization through the database's read cache, for the access check of every request. */
export function findOrganizationCached(db: Database, id: string): Promise<OrganizationRecord | undefined> {
  return db.cached(`organization:${id}`, organizationReads, () => findOrganization(db, id));
}

export async function getOrganization(db: Queryable, id: string): Promise<OrganizationRecord> {
  const organization = await findOrganization(db, id);
  if (!organization) throw notFound(`Organization ${id}`);
  return organization;
}

/** The organizations the user is a member of, each with the user's role there. */
export async function listOrganizationsOfUser(db: Queryable, userId: string, request: PageRequest): Promise<Page<{ organization: OrganizationRecord; role: MemberRole | null }>> {
  const page = await paginate<OrganizationRow & { joined_at: string; member_role: MemberRole | null }>(
    db,
    {
      select: `${columnsOf[db.dialect]}, memberships.joined_at, memberships.role AS member_role`,
      from: 'memberships JOIN organizations ON organizations.id = memberships.organization_id',
      where: 'memberships.user_id = ?',
      params: [userId],
      sort: ['memberships.joined_at', 'organizations.id'],
      key: (row) => [row.joined_at, row.id],
    },
    request,
  );
  return mapPage(page, (row) => ({ organization: toOrganization(row), role: row.member_role }));
}

export async function listOrganizationsAll(db: Queryable): Promise<OrganizationRecord[]> {
  const rows = await db.all<OrganizationRow>(`SELECT ${columnsOf[db.dialect]} FROM organizations WHERE deleted_at IS NULL ORDER BY created_at, id`);
  return rows.map(toOrganization);
}

export async function listOrganizationsWithEmailDomain(db: Queryable, domain: string): Promise<OrganizationRecord[]> {
  const rows = await db.all<OrganizationRow>(
    `SELECT ${columnsOf[db.dialect]} FROM organizations
     WHERE id IN (SELECT organization_id FROM organization_email_domains WHERE domain = ?)
     ORDER BY created_at, id`,
    [domain.toLowerCase()],
  );
  return rows.map(toOrganization);
}

export async function findOrganizationByHostname(db: Queryable, hostname: string): Promise<OrganizationRecord | undefined> {
  const row = await db.get<OrganizationRow>(`SELECT ${columnsOf[db.dialect]} FROM organizations WHERE hostname = ?`, [hostname]);
  return row && toOrganization(row);
}

export interface OrganizationChanges {
  title?: string;
  emailDomains?: string[];
  hostname?: string | null;
  defaultRole?: MemberRole | null;
  defaultContent?: DefaultContent | null;
  logo?: string | null;
  sso?: boolean;
  ai?: boolean;
  inviteLinks?: boolean;
  mergeRules?: MergeRules;
}

const columnOf: Record<Exclude<keyof OrganizationChanges, 'emailDomains'>, (value: never) => [string, unknown]> = {
  title: (value: string) => ['title', value],
  hostname: (value: string | null) => ['hostname', value],
  defaultRole: (value: MemberRole | null) => ['default_role', value],
  defaultContent: (value: DefaultContent | null) => ['default_content', value === null ? null : JSON.stringify(value)],
  logo: (value: string | null) => ['logo', value],
  sso: (value: boolean) => ['sso', value ? 1 : 0],
  ai: (value: boolean) => ['ai', value ? 1 : 0],
  inviteLinks: (value: boolean) => ['invite_links', value ? 1 : 0],
  mergeRules: (value: MergeRules) => ['merge_rules', JSON.stringify(value)],
};

/** Applies the given changes; in a transaction, since email domains span two tables. */
export async function updateOrganization(db: Transaction, id: string, changes: OrganizationChanges): Promise<OrganizationRecord> {
  const assignments: string[] = [];
  const params: unknown[] = [];
  for (const [field, toColumn] of Object.entries(columnOf)) {
    const value = changes[field as keyof OrganizationChanges];
    if (value === undefined) continue;
    const [column, stored] = toColumn(value as never);
    assignments.push(`${column} = ?`);
    params.push(stored);
  }
  if (assignments.length > 0) await db.run(`UPDATE organizations SET ${assignments.join(', ')} WHERE id = ?`, [...params, id]);
  if (changes.emailDomains) {
    await db.run('DELETE FROM organization_email_domains WHERE organization_id = ?', [id]);
    for (const [position, domain] of changes.emailDomains.entries()) {
      await db.run('INSERT INTO organization_email_domains (organization_id, position, domain) VALUES (?, ?, ?)', [id, position, domain]);
    }
  }
  return getOrganization(db, id);
}

/**
 * Deletes the organization (an operator's command): its row stays as a tombstone with `deleted_at`,
 * which no read returns; its members, invitations, teams, collections, links, SAML providers,
 * email domains, agent instructions, grants on its content and docs sites (with their share links) go. Its spaces must be in the bin already, each with its
 * purge job (the purge removes them). False when there was no such live organization.
 */
export async function markOrganizationDeleted(db: Transaction, id: string): Promise<boolean> {
  const { changes } = await db.run('UPDATE organizations SET deleted_at = ?, hostname = NULL WHERE id = ? AND deleted_at IS NULL', [now(), id]);
  if (changes === 0) return false;
  for (const table of [
    'memberships',
    'invitations',
    'team_content_grants',
    'teams',
    'invite_links',
    'saml_providers',
    'organization_email_domains',
    'agent_instructions',
    'collections',
    'content_grants',
    'sites',
  ]) {
    await db.run(`DELETE FROM ${table} WHERE organization_id = ?`, [id]);
  }
  return true;
}
