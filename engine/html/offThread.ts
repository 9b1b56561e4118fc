import { runInPool, siblingModule } from '../runtime/workerPool.js';
import type { PageMetadata } from './pageMetadata.js';

const tasks = siblingModule(import.meta.url, 'htmlTasks');

/** pageMetadata in the worker pool, with its time limit: a page fetched from anywhere never holds the event loop. */
export const readPageMetadata = (html: string, baseUrl: string): Promise<PageMetadata> => runInPool(tasks, 'metadata', { html, baseUrl }, `Reading the page at ${baseUrl}`);
