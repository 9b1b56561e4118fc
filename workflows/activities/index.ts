import type { ContentDeps } from '../../domain/common/deps.js';
import type { Jobs } from '../../domain/common/ports.js';
import { heartbeating } from './heartbeat.js';
import { finishFailedOpenAPISpec, processOpenAPISpec } from './processOpenAPISpec.js';
import { purgeDeletedSpace } from './purgeDeletedSpace.js';
import { failTranslation, runTranslation } from './runTranslation.js';
import { failPdfExportActivity, renderPdfExport } from './renderPdfExport.js';
import { consolidateConversations, consolidateOrganizationConversations, processConversations } from './processConversations.js';
import { refreshOpenAPISources } from './refreshOpenAPISources.js';
import { repackRepositories } from './repackRepositories.js';
import { pruneAuditEvents } from './pruneAuditEvents.js';
import { runImport } from './runImport.js';
import { runGitSync } from './runGitSync.js';
import { revalidateRenderer } from './revalidateRenderer.js';
import { spaceMoveActivities } from './moveSpace.js';
import type { RendererSettings } from '../settings.js';

/** The domain's dependencies: the worker's entry point wires them once (the jobs: to start the jobs a refresh asks for). */
export type ActivityDependencies = ContentDeps & { jobs: Pick<Jobs, 'startRendererRevalidation' | 'startOpenAPIProcessing'> };

/** Every activity, bound to what it needs; the worker registers these, workflows see only the type. */
export function createActivities(deps: ActivityDependencies, options: { renderer?: RendererSettings } = {}) {
  return {
    purgeDeletedSpace: heartbeating(purgeDeletedSpace(deps)),
    processOpenAPISpec: heartbeating(processOpenAPISpec(deps)),
    finishFailedOpenAPISpec: finishFailedOpenAPISpec(deps),
    refreshOpenAPISources: refreshOpenAPISources(deps),
    runTranslation: heartbeating(runTranslation(deps)),
    failTranslation: failTranslation(deps),
    renderPdfExport: heartbeating(renderPdfExport(deps)),
    failPdfExport: failPdfExportActivity(deps),
    processConversations: heartbeating(processConversations(deps)),
    consolidateConversations: heartbeating(consolidateConversations(deps)),
    consolidateOrganizationConversations: heartbeating(consolidateOrganizationConversations(deps)),
    repackRepositories: repackRepositories(deps),
    pruneAuditEvents: pruneAuditEvents(deps),
    runImport: heartbeating(runImport(deps)),
    runGitSync: heartbeating(runGitSync(deps)),
    revalidateRenderer: revalidateRenderer(deps, options.renderer),
    ...spaceMoveActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
