import type { MergeOutcome } from '../../domain/changeRequests/index.js';

/** Upstream's `{revision, result}`, with the conflicts (a Quire field) when there are some. */
export function presentMergeOutcome(outcome: MergeOutcome) {
  if (outcome.result !== 'conflicts') return { revision: outcome.revision, result: outcome.result };
  return {
    revision: outcome.revision,
    result: outcome.result,
    conflicts: outcome.conflicts.map((conflict) =>
      conflict.kind === 'page' ? { kind: conflict.kind, page: conflict.pageId, title: conflict.title, reason: conflict.reason } : { kind: conflict.kind, path: conflict.path, reason: conflict.reason },
    ),
  };
}
