import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from './activities/index.js';
import type { PdfExportInput } from '../domain/pdf/index.js';

const { renderPdfExport } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  // A browser that crashed or timed out is worth another try; content that can't render fails the same way each time.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds', maximumAttempts: 3 },
});
const { failPdfExport } = proxyActivities<Activities>({ startToCloseTimeout: '30 seconds', retry: { initialInterval: '1 second', maximumInterval: '10 seconds' } });

/** The PDF of a change request's revision (job id `pdf:<space>:<cr>:<revision>:<options>`). */
export async function pdfExport(input: PdfExportInput): Promise<string> {
  try {
    return await renderPdfExport(input);
  } catch (error) {
    if (!(error instanceof ActivityFailure)) throw error;
    await failPdfExport({ ...input, reason: error.cause?.message ?? error.message });
    return 'failed';
  }
}
