// Bundles the workflows once, so a worker starts without running webpack.
//   node scripts/bundle-workflows.mjs            `npm run build`: dist/workflows/index.workflow.js → dist/workflows/workflow-bundle.js
//   node scripts/bundle-workflows.mjs <out.js>   the sources (workflows/index.workflow.ts) → <out.js>, for `npm test`
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

const [out] = process.argv.slice(2);
const entry = fileURLToPath(new URL(out ? '../workflows/index.workflow.ts' : '../dist/workflows/index.workflow.js', import.meta.url));
const { code } = await bundleWorkflowCode({ workflowsPath: entry, logger: new DefaultLogger('WARN') });
writeFileSync(out ?? new URL('../dist/workflows/workflow-bundle.js', import.meta.url), code);
