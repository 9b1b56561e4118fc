// `npm run build`: bundles the workflows once, so a worker starts without running webpack.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

const entry = fileURLToPath(new URL('../dist/workflows/index.workflow.js', import.meta.url));
const { code } = await bundleWorkflowCode({ workflowsPath: entry, logger: new DefaultLogger('WARN') });
writeFileSync(new URL('../dist/workflows/workflow-bundle.js', import.meta.url), code);
