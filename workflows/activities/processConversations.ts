import { configuredExtractor, consolidateClusters, processPendingConversations } from '../../domain/conversations/index.js';
import type { ContentDeps } from '../../domain/common/deps.js';
import { organizationsWithPendingConversations } from '../../storage/conversations.js';
import { organizationsToConsolidate } from '../../storage/issueClusters.js';
import type { ConversationProcessingInput } from '../conversationProcessing.workflow.js';

/** One batch of the organization's pending conversations. */
export function processConversations(deps: ContentDeps) {
  return async (input: ConversationProcessingInput) => processPendingConversations(deps, input.organizationId, configuredExtractor());
}

/** The organization's clusters made again from scratch, once its posts have gone quiet. */
export function consolidateOrganizationConversations(deps: ContentDeps) {
  return async (input: ConversationProcessingInput) => consolidateClusters(deps, input.organizationId);
}

/** Sweeps conversations left pending, then consolidates the clusters of every organization whose issues changed. */
export function consolidateConversations(deps: ContentDeps) {
  return async () => {
    const extractor = configuredExtractor();
    for (const organizationId of await organizationsWithPendingConversations(deps.db)) {
      while ((await processPendingConversations(deps, organizationId, extractor)).remaining);
    }
    const organizations = await organizationsToConsolidate(deps.db);
    for (const organizationId of organizations) await consolidateClusters(deps, organizationId);
    return { organizations: organizations.length };
  };
}
