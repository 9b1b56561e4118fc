import type { Queryable } from './db.js';
import { now } from './ids.js';

export interface AgentInstructionsRecord {
  organizationId: string;
  /** A Document, stored as the JSON it was given in. */
  document: Record<string, unknown>;
  updatedAt: string;
  updatedBy: string;
}

export async function findAgentInstructions(db: Queryable, organizationId: string): Promise<AgentInstructionsRecord | undefined> {
  const row = await db.get<{ document: string; updated_at: string; updated_by: string }>('SELECT document, updated_at, updated_by FROM agent_instructions WHERE organization_id = ?', [organizationId]);
  return row && { organizationId, document: JSON.parse(row.document), updatedAt: row.updated_at, updatedBy: row.updated_by };
}

export async function putAgentInstructions(db: Queryable, organizationId: string, document: Record<string, unknown>, updatedBy: string): Promise<AgentInstructionsRecord> {
  const record = { organizationId, document, updatedAt: now(), updatedBy };
  await db.run(
    `INSERT INTO agent_instructions (organization_id, document, updated_at, updated_by) VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
    [organizationId, JSON.stringify(document), record.updatedAt, record.updatedBy],
  );
  return record;
}
