// Every workflow the worker runs: the entry point of the workflow bundle.
export { spaceDeletion } from './spaceDeletion.workflow.js';
export { openapiProcessing } from './openapiProcessing.workflow.js';
export { openapiRefresh } from './openapiRefresh.workflow.js';
export { translationRun } from './translationRun.workflow.js';
export { pdfExport } from './pdfExport.workflow.js';
export { conversationProcessing } from './conversationProcessing.workflow.js';
export { conversationsConsolidation } from './conversationsConsolidation.workflow.js';
export { repositoryMaintenance } from './repositoryMaintenance.workflow.js';
export { auditRetention } from './auditRetention.workflow.js';
export { contentImport } from './contentImport.workflow.js';
export { gitSync } from './gitSync.workflow.js';
export { rendererRevalidation } from './rendererRevalidation.workflow.js';
export { spaceMove } from './spaceMove.workflow.js';
