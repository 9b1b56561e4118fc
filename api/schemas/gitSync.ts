import type { FromSchema } from 'json-schema-to-ts';

/** What import and export share (upstream's ImportGitRepository / ExportToGitRepository); repoCacheID, repoTreeURL and repoCommitURL are accepted and unused. */
const common = {
  url: { type: 'string', minLength: 1, maxLength: 2048 },
  ref: { type: 'string', minLength: 1, maxLength: 256 },
  repoCacheID: { type: 'string', maxLength: 256 },
  repoTreeURL: { type: 'string', maxLength: 2048 },
  repoCommitURL: { type: 'string', maxLength: 2048 },
  repoProjectDirectory: { type: 'string', maxLength: 1024 },
  timestamp: { type: 'string', maxLength: 64 },
  force: { type: 'boolean' },
  gitInfo: {
    type: 'object',
    properties: { provider: { enum: ['github', 'gitlab'] }, url: { type: 'string', maxLength: 2048 } },
    additionalProperties: false,
  },
} as const;

export const importGitRepository = {
  type: 'object',
  properties: { ...common, standalone: { type: 'boolean' } },
  required: ['url', 'ref'],
  additionalProperties: false,
} as const;

export const exportToGitRepository = {
  type: 'object',
  properties: { ...common, commitMessage: { type: 'string', maxLength: 65_536 } },
  required: ['url', 'ref', 'commitMessage'],
  additionalProperties: false,
} as const;

export type ImportGitRepositoryBody = FromSchema<typeof importGitRepository>;
export type ExportToGitRepositoryBody = FromSchema<typeof exportToGitRepository>;
