import type { Database } from '../../storage/db.js';
import {
  deleteOpenAPISpec,
  findOpenAPISpec,
  getOpenAPISpec,
  insertOpenAPISpec,
  listURLSourcedSpecs,
  replaceOpenAPISource,
  restoreOpenAPISource,
  setOpenAPIVisibility,
  type OpenAPISource,
  type OpenAPISpecRecord,
  type OpenAPIVisibility,
} from '../../storage/openapi.js';
import type { JobDeps } from '../common/deps.js';
import type { Jobs } from '../common/ports.js';
import { alreadyThere } from '../common/errors.js';

type Deps = Pick<JobDeps, 'db' | 'jobs'>;

/**
 * Slugs are case-insensitive and kept in lower case: the spec accepts `[a-zA-Z0-9-]`, while the
 * OpenAPISpec shape of @gitbook/api 0.146 allows only lower case (see docs/decisions/jobs.md).
 */
export const normalizeSlug = (slug: string): string => slug.toLowerCase();

/**
 * A new specification, `pending`, with its processing job started. When the job can't be started
 * the spec is removed again and the caller gets the job service's 503.
 */
export async function createOpenAPISpec(deps: Deps, organizationId: string, givenSlug: string, source: OpenAPISource): Promise<OpenAPISpecRecord> {
  const slug = normalizeSlug(givenSlug);
  const spec = await deps.db.transaction((tx) => insertOpenAPISpec(tx, { organizationId, slug, source }));
  if (!spec) throw alreadyThere(`An OpenAPI specification with the slug "${slug}" already exists in organization ${organizationId}`);
  await startOrUndo(deps, spec);
  return spec;
}

/**
 * Creates the spec under `slug` or gives it a new source; either way it is processed again (a URL
 * source given again is refreshed at once). Unchanged content makes no new version. When the job
 * can't be started, the spec is removed again or its previous source put back, and the caller
 * gets the job service's 503.
 */
export async function putOpenAPISpec(deps: Deps, organizationId: string, givenSlug: string, source: OpenAPISource): Promise<{ spec: OpenAPISpecRecord; created: boolean }> {
  const slug = normalizeSlug(givenSlug);
  const outcome = await deps.db.transaction(async (tx) => {
    const inserted = await insertOpenAPISpec(tx, { organizationId, slug, source });
    if (inserted) return { spec: inserted, created: true, previous: undefined };
    const previous = await getOpenAPISpec(tx, organizationId, slug);
    await replaceOpenAPISource(tx, previous.id, source);
    return { spec: await getOpenAPISpec(tx, organizationId, slug), created: false, previous };
  });
  if (outcome.created) await startOrUndo(deps, outcome.spec);
  else {
    try {
      await deps.jobs.startOpenAPIProcessing(organizationId, slug);
    } catch (error) {
      await restoreOpenAPISource(deps.db, outcome.previous!, outcome.spec.generation);
      throw error;
    }
  }
  return { spec: outcome.spec, created: outcome.created };
}

/**
 * The periodic refresh of URL sources: every specification with a source URL is processed again,
 * as a PUT of the same source would (a job already running for one takes one more round), and
 * stores a new version only where the fetched content changed. In the order of their ids, from
 * after `from` (where an earlier attempt got to), each started one told to `progress`. Returns how
 * many were started.
 */
export async function refreshURLSourcedSpecs(
  deps: { db: Database; jobs: Pick<Jobs, 'startOpenAPIProcessing'> },
  options: { from?: string; progress?: (startedId: string) => void } = {},
): Promise<number> {
  let started = 0;
  const page = (after: string) => listURLSourcedSpecs(deps.db, after, 200);
  for (let after = options.from ?? '', specs = await page(after); specs.length > 0; after = specs[specs.length - 1]!.id, specs = await page(after)) {
    for (const spec of specs) {
      await deps.jobs.startOpenAPIProcessing(spec.organizationId, spec.slug);
      started += 1;
      options.progress?.(spec.id);
    }
  }
  return started;
}

/** Removes the spec and its versions; a job still running for it finds it gone and stops. */
export async function removeOpenAPISpec(deps: Pick<Deps, 'db'>, spec: OpenAPISpecRecord): Promise<void> {
  await deleteOpenAPISpec(deps.db, spec.id);
}

async function startOrUndo(deps: Deps, spec: OpenAPISpecRecord): Promise<void> {
  try {
    await deps.jobs.startOpenAPIProcessing(spec.organizationId, spec.slug);
  } catch (error) {
    if ((await findOpenAPISpec(deps.db, spec.organizationId, spec.slug))?.id === spec.id) await deleteOpenAPISpec(deps.db, spec.id);
    throw error;
  }
}

/** Whether the specification is public (readable by anyone with its URL) or private. */
export function setSpecVisibility(db: Database, specId: string, visibility: OpenAPIVisibility): Promise<void> {
  return setOpenAPIVisibility(db, specId, visibility);
}
