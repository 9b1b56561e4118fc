import type { Migration } from './index.js';

export const changeRequests: Migration = {
  version: 11,
  name: 'change-requests',
  sql: `
-- A change request is a branch of its space's repository (branch); its content lives there, its
-- workflow here. number counts per space, from 1.
CREATE TABLE change_requests (
  id TEXT PRIMARY KEY,
  space_id TEXT NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  branch TEXT NOT NULL,
  status TEXT NOT NULL,
  subject TEXT NOT NULL DEFAULT '',
  -- the upstream JSON Document, as JSON
  description TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  -- the primary branch's head the branch started from, and the last one merged into it (update)
  revision_initial TEXT NOT NULL,
  revision_merged_ancestor TEXT,
  -- the merge commit on the primary branch, once merged
  revision_merged TEXT,
  UNIQUE (space_id, number)
);
CREATE INDEX change_requests_by_space ON change_requests(space_id, status, created_at, id);
CREATE INDEX change_requests_by_creator ON change_requests(created_by);

-- Who wrote to the change request's branch (an API write, a template).
CREATE TABLE change_request_contributors (
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  first_at TEXT NOT NULL,
  last_at TEXT NOT NULL,
  -- how many writes (batches, templates) they made
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_by_user ON change_request_contributors(user_id);

CREATE TABLE change_request_requested_reviewers (
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  requested_by TEXT NOT NULL,
  requested_at TEXT NOT NULL,
  -- the branch head when the review was requested
  revision TEXT NOT NULL,
  PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_requested_reviewers_by_user ON change_request_requested_reviewers(user_id);

-- A review is tied to the head revision its reviewer saw.
CREATE TABLE change_request_reviews (
  id TEXT PRIMARY KEY,
  change_request_id TEXT NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  reviewer_id TEXT NOT NULL,
  requested_by TEXT,
  status TEXT NOT NULL,
  revision TEXT NOT NULL,
  -- the change request comment posted with the review, if any
  comment_id TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX change_request_reviews_by_change_request ON change_request_reviews(change_request_id, created_at, id);
`,
};
