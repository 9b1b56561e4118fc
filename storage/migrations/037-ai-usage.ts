import type { Migration } from './index.js';

export const aiUsage: Migration = {
  version: 37,
  name: 'ai-usage',
  // What the organization's features asked of the chat model (QUIRE_OPENAI_*), per UTC day:
  // calls, and the tokens the model reported using (getOrganizationAIUsage).
  sql: `
CREATE TABLE IF NOT EXISTS ai_usage_days (
  organization_id TEXT NOT NULL,
  day TEXT NOT NULL,
  feature TEXT NOT NULL,
  calls INTEGER NOT NULL,
  tokens INTEGER NOT NULL,
  PRIMARY KEY (organization_id, day, feature)
);
`,
};
