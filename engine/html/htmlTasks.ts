/** The HTML work that runs in the worker pool (engine/runtime/workerPool.ts): a stranger's page is parsed off the event loop. */
import { pageMetadata, type PageMetadata } from './pageMetadata.js';

export const metadata = ({ html, baseUrl }: { html: string; baseUrl: string }): PageMetadata => pageMetadata(html, baseUrl);
