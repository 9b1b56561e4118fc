import type { Migration } from './index.js';
import { postgresSchema, withRowid } from '../dialect.js';

const sql = `
-- A comment on a space, or (change_request_id set) on a change request of the space; its target is
-- the space, a page, or a block node or table cell of a page, as seen at revision. change_request_id
-- has no foreign key: change requests are never deleted on their own, and their comments go with
-- the space (ON DELETE CASCADE from spaces) like the change requests themselves.
CREATE TABLE comments (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id TEXT,
  page_id TEXT,
  node_id TEXT,
  table_record TEXT,
  table_definition TEXT,
  revision TEXT NOT NULL,
  posted_by TEXT NOT NULL,
  posted_at TEXT NOT NULL,
  edited_at TEXT,
  -- both forms of the body, kept at write time so that lists convert nothing
  body_markdown TEXT NOT NULL,
  body_document TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'open',
  resolved_at TEXT,
  resolved_by TEXT
);
CREATE INDEX comments_by_space ON comments(space_id, change_request_id, posted_at, id);
CREATE INDEX comments_by_page ON comments(space_id, change_request_id, page_id, posted_at, id);
CREATE INDEX comments_open ON comments(space_id, change_request_id) WHERE status = 'open';

CREATE TABLE comment_replies (
  id TEXT PRIMARY KEY,
  comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  posted_by TEXT NOT NULL,
  posted_at TEXT NOT NULL,
  edited_at TEXT,
  body_markdown TEXT NOT NULL,
  body_document TEXT NOT NULL
);
CREATE INDEX comment_replies_by_comment ON comment_replies(comment_id, posted_at, id);

-- One row per person and emoji: a reaction counts each person once.
CREATE TABLE comment_reactions (
  comment_id TEXT NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  user_id TEXT NOT NULL,
  reacted_at TEXT NOT NULL,
  PRIMARY KEY (comment_id, emoji, user_id)
);

CREATE TABLE comment_reply_reactions (
  reply_id TEXT NOT NULL REFERENCES comment_replies(id) ON DELETE CASCADE,
  emoji TEXT NOT NULL,
  user_id TEXT NOT NULL,
  reacted_at TEXT NOT NULL,
  PRIMARY KEY (reply_id, emoji, user_id)
);
`;

export const comments: Migration = {
  version: 12,
  name: 'comments',
  sql,
  postgres: withRowid(postgresSchema(sql), ['comment_reactions', 'comment_reply_reactions']),
};
