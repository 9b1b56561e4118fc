import type { AgentInstructionsRecord } from '../../storage/agentInstructions.js';
import type { Urls } from '../urls.js';

export function presentAgentInstructions(instructions: AgentInstructionsRecord, urls: Urls) {
  return {
    object: 'agent-instructions' as const,
    instructions: instructions.document,
    updatedAt: instructions.updatedAt,
    updatedBy: instructions.updatedBy,
    urls: { location: urls.agentInstructions(instructions.organizationId) },
  };
}
