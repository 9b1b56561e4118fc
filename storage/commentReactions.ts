import type { Queryable } from './db.js';
import { now } from './ids.js';

/** Reactions are kept per comment and per reply, in tables of the same shape. */
export type ReactionSubject = 'comment' | 'reply';

const tables: Record<ReactionSubject, { table: string; column: string }> = {
  comment: { table: 'comment_reactions', column: 'comment_id' },
  reply: { table: 'comment_reply_reactions', column: 'reply_id' },
};

export interface ReactionRecord {
  emoji: string;
  users: Array<{ userId: string; reactedAt: string }>;
}

/** The caller's reactions added (a repeated one keeps its first time) and removed (an absent one is no change). */
export async function changeReactions(db: Queryable, subject: ReactionSubject, id: string, userId: string, change: { added: string[]; removed: string[] }): Promise<void> {
  const { table, column } = tables[subject];
  const at = now();
  for (const emoji of change.added) {
    await db.run(`INSERT INTO ${table} (${column}, emoji, user_id, reacted_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`, [id, emoji, userId, at]);
  }
  for (const emoji of change.removed) {
    await db.run(`DELETE FROM ${table} WHERE ${column} = ? AND emoji = ? AND user_id = ?`, [id, emoji, userId]);
  }
}

/** Per comment (or reply): each emoji with who reacted and when, emojis and people in the order they reacted. */
export async function reactionsOf(db: Queryable, subject: ReactionSubject, ids: string[]): Promise<Map<string, ReactionRecord[]>> {
  const { table, column } = tables[subject];
  const rows = await db.all<{ subject_id: string; emoji: string; user_id: string; reacted_at: string }>(
    `SELECT ${column} AS subject_id, emoji, user_id, reacted_at FROM ${table}
     WHERE ${column} IN (SELECT value FROM json_each(?)) ORDER BY reacted_at, rowid`,
    [JSON.stringify(ids)],
  );
  const bySubject = new Map<string, ReactionRecord[]>();
  for (const row of rows) {
    const reactions = bySubject.get(row.subject_id) ?? [];
    let reaction = reactions.find((candidate) => candidate.emoji === row.emoji);
    if (!reaction) {
      reaction = { emoji: row.emoji, users: [] };
      reactions.push(reaction);
    }
    reaction.users.push({ userId: row.user_id, reactedAt: row.reacted_at });
    bySubject.set(row.subject_id, reactions);
  }
  return bySubject;
}
