/** Redaction as a task of the worker pool (engine/runtime/workerPool.ts): see redactPosts in conversations.ts. */
import { redactPost, type PostToRedact } from './redact.js';

export const redactPosts = ({ organizationId, posts }: { organizationId: string; posts: PostToRedact[] }) => posts.map((post) => redactPost(organizationId, post));
