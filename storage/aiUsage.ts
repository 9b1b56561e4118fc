import type { Queryable } from './db.js';

/** One call of the chat model by a feature of the organization, on a UTC day, with the tokens it reported. */
export async function addAIUsage(db: Queryable, organizationId: string, day: string, feature: string, tokens: number): Promise<void> {
  await db.run(
    `INSERT INTO ai_usage_days (organization_id, day, feature, calls, tokens) VALUES (?, ?, ?, 1, ?)
     ON CONFLICT (organization_id, day, feature) DO UPDATE SET calls = ai_usage_days.calls + 1, tokens = ai_usage_days.tokens + excluded.tokens`,
    [organizationId, day, feature, tokens],
  );
}

/** The organization's usage per day and feature, from `fromDay` to `toDay` (both included, `YYYY-MM-DD`). */
export async function listAIUsage(db: Queryable, organizationId: string, fromDay: string, toDay: string): Promise<Array<{ day: string; feature: string; calls: number; tokens: number }>> {
  const rows = await db.all<{ day: string; feature: string; calls: number | string; tokens: number | string }>(
    'SELECT day, feature, calls, tokens FROM ai_usage_days WHERE organization_id = ? AND day >= ? AND day <= ? ORDER BY day, feature',
    [organizationId, fromDay, toDay],
  );
  return rows.map((row) => ({ day: row.day, feature: row.feature, calls: Number(row.calls), tokens: Number(row.tokens) }));
}

export async function deleteAIUsageOf(db: Queryable, organizationId: string): Promise<void> {
  await db.run('DELETE FROM ai_usage_days WHERE organization_id = ?', [organizationId]);
}
