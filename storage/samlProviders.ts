import type { Queryable } from './db.js';
import { notFound } from './errors.js';
import { newId, now } from './ids.js';
import type { MemberRole } from './members.js';
import { mapPage, paginate, type Page, type PageRequest } from './pagination.js';

export interface SamlProviderRecord {
  id: string;
  organizationId: string;
  label: string;
  ssoURL: string | null;
  entityID: string | null;
  certificate: string | null;
  defaultTeamId: string | null;
  defaultRole: MemberRole | null;
  createdAt: string;
}

export type SamlProviderFields = Partial<Omit<SamlProviderRecord, 'id' | 'organizationId' | 'createdAt'>>;

interface SamlRow {
  id: string;
  organization_id: string;
  label: string;
  sso_url: string | null;
  entity_id: string | null;
  certificate: string | null;
  default_team_id: string | null;
  default_role: MemberRole | null;
  created_at: string;
}

const columnOf: Record<keyof SamlProviderFields, string> = {
  label: 'label',
  ssoURL: 'sso_url',
  entityID: 'entity_id',
  certificate: 'certificate',
  defaultTeamId: 'default_team_id',
  defaultRole: 'default_role',
};

function toProvider(row: SamlRow): SamlProviderRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    label: row.label,
    ssoURL: row.sso_url,
    entityID: row.entity_id,
    certificate: row.certificate,
    defaultTeamId: row.default_team_id,
    defaultRole: row.default_role,
    createdAt: row.created_at,
  };
}

export async function insertSamlProvider(db: Queryable, organizationId: string, fields: SamlProviderFields & { label: string }): Promise<SamlProviderRecord> {
  const id = newId();
  await db.run(
    `INSERT INTO saml_providers (id, organization_id, label, sso_url, entity_id, certificate, default_team_id, default_role, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, organizationId, fields.label, fields.ssoURL ?? null, fields.entityID ?? null, fields.certificate ?? null, fields.defaultTeamId ?? null, fields.defaultRole ?? null, now()],
  );
  return getSamlProvider(db, organizationId, id);
}

export async function findSamlProvider(db: Queryable, organizationId: string, id: string): Promise<SamlProviderRecord | undefined> {
  const row = await db.get<SamlRow>('SELECT * FROM saml_providers WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return row && toProvider(row);
}

export async function getSamlProvider(db: Queryable, organizationId: string, id: string): Promise<SamlProviderRecord> {
  const provider = await findSamlProvider(db, organizationId, id);
  if (!provider) throw notFound(`SAML provider ${id}`);
  return provider;
}

export async function listSamlProviders(db: Queryable, organizationId: string, request: PageRequest): Promise<Page<SamlProviderRecord>> {
  const page = await paginate<SamlRow>(
    db,
    { select: '*', from: 'saml_providers', where: 'organization_id = ?', params: [organizationId], sort: ['created_at', 'id'], key: (row) => [row.created_at, row.id] },
    request,
  );
  return mapPage(page, toProvider);
}

export async function listAllSamlProviders(db: Queryable, organizationId: string): Promise<SamlProviderRecord[]> {
  const rows = await db.all<SamlRow>('SELECT * FROM saml_providers WHERE organization_id = ? ORDER BY created_at, id', [organizationId]);
  return rows.map(toProvider);
}

export async function updateSamlProvider(db: Queryable, organizationId: string, id: string, fields: SamlProviderFields): Promise<SamlProviderRecord> {
  const entries = Object.entries(fields).filter(([field, value]) => value !== undefined && field in columnOf) as Array<[keyof SamlProviderFields, unknown]>;
  if (entries.length > 0) {
    await db.run(`UPDATE saml_providers SET ${entries.map(([field]) => `${columnOf[field]} = ?`).join(', ')} WHERE organization_id = ? AND id = ?`, [
      ...entries.map(([, value]) => value),
      organizationId,
      id,
    ]);
  }
  return getSamlProvider(db, organizationId, id);
}

export async function deleteSamlProvider(db: Queryable, organizationId: string, id: string): Promise<boolean> {
  const { changes } = await db.run('DELETE FROM saml_providers WHERE organization_id = ? AND id = ?', [organizationId, id]);
  return changes > 0;
}
