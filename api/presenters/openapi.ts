import type { MemberRole } from '../../storage/members.js';
import type { OpenAPISpecRecord, OpenAPIVersionRecord } from '../../storage/openapi.js';
import { openAPIActions } from '../policies/actions.js';
import { atLeast } from '../policies/roles.js';
import type { Urls } from '../urls.js';

const specPath = (spec: { organizationId: string; slug: string }) => `/orgs/${spec.organizationId}/openapi/${encodeURIComponent(spec.slug)}`;

export function presentOpenAPISpec(spec: OpenAPISpecRecord, role: MemberRole | null, urls: Urls) {
  return {
    object: 'openapi-spec' as const,
    id: spec.id,
    createdAt: spec.createdAt,
    updatedAt: spec.updatedAt,
    slug: spec.slug,
    ...(spec.sourceUrl !== null ? { sourceURL: spec.sourceUrl } : {}),
    processingState: spec.processingState,
    visibility: spec.visibility,
    ...(spec.lastVersionId !== null ? { lastVersion: spec.lastVersionId } : {}),
    ...(spec.lastProcessedAt !== null ? { lastProcessedAt: spec.lastProcessedAt } : {}),
    ...(spec.lastErrorCode !== null ? { lastProcessErrorCode: spec.lastErrorCode } : {}),
    ...(spec.lastErrors !== null ? { lastProcessedErrors: spec.lastErrors.map((problem) => ({ message: problem.message, ...(problem.code ? { code: problem.code } : {}) })) } : {}),
    lastProcessedErrorCount: spec.lastErrorCount,
    permissions: { view: atLeast(role, openAPIActions.view), edit: atLeast(role, openAPIActions.edit) },
    urls: { location: urls.api(specPath(spec)), app: urls.app(`/o/${spec.organizationId}/openapi/${encodeURIComponent(spec.slug)}`) },
  };
}

/** Where a version's specification can be read: its source URL, or for uploaded text its content in the API. */
export function openAPIVersionUrl(spec: OpenAPISpecRecord, version: OpenAPIVersionRecord, urls: Urls): string {
  return version.sourceUrl ?? openAPIContentUrl(spec, version, urls);
}

const openAPIContentUrl = (spec: OpenAPISpecRecord, version: OpenAPIVersionRecord, urls: Urls) => urls.api(`${specPath(spec)}/versions/${version.id}/content`);

export function presentOpenAPIVersion(spec: OpenAPISpecRecord, version: OpenAPIVersionRecord, urls: Urls) {
  return {
    object: 'openapi-spec-version' as const,
    id: version.id,
    createdAt: version.createdAt,
    url: openAPIVersionUrl(spec, version, urls),
    urls: { location: urls.api(`${specPath(spec)}/versions/${version.id}`) },
  };
}

/** How a spec's files are given: the spec's object by file name, or GitBook's list of files (fileListClient). */
export type OpenAPIFilesystemForm = 'object' | 'file list';

/**
 * 0.146.0's `url` and 0.202.0's `urls` (GitBook's renderer reads the latter): `public` is a public
 * spec's source URL; null for a private one, and for uploaded text, which has no public address.
 * `source: 'api'` gives the content's address in the API instead of the source URL.
 * `filesystem` is `{"openapi.json": …}` as the spec's object type says, or for GitBook's renderer
 * the list of files its OpenAPI parser makes of the same bundle (docs/decisions/jobs.md, "OpenAPI specifications and outbound fetches").
 */
export function presentOpenAPIContent(
  spec: OpenAPISpecRecord,
  version: OpenAPIVersionRecord,
  filesystem: Record<string, unknown>,
  urls: Urls,
  form: OpenAPIFilesystemForm = 'object',
  source: 'origin' | 'api' = 'origin',
) {
  const url = source === 'api' ? openAPIContentUrl(spec, version, urls) : openAPIVersionUrl(spec, version, urls);
  const files = form === 'object' ? filesystem : [{ dir: '.', isEntrypoint: true, references: [], filename: 'openapi.json', specification: filesystem['openapi.json'] }];
  return { filesystem: files, url, urls: { source: url, public: spec.visibility === 'public' ? version.sourceUrl : null } };
}

/** GitBook's renderer (its API client's User-Agent) reads a spec's files as its parser's list, calling `find` on it. */
export const fileListClient = /^GitBook-Open\//;

/** `OpenAPISpecRawContent`: the entry file as submitted. */
export function presentOpenAPIRawContent(raw: { text: string; format: 'json' | 'yaml' }) {
  return { text: raw.text, format: raw.format };
}
