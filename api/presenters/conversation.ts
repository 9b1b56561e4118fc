import type { ConversationIssueRecord, ConversationRecord } from '../../storage/conversations.js';
import type { ClusterActivity, IssueClusterRecord } from '../../storage/issueClusters.js';
import type { Urls } from '../urls.js';

const conversationUrl = (urls: Urls, conversation: ConversationRecord) => urls.api(`/orgs/${conversation.organizationId}/conversations/${encodeURIComponent(conversation.id)}`);

const isAbsoluteUrl = (text: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

export function presentConversation(conversation: ConversationRecord, urls: Urls) {
  const source = conversation.metadata.url;
  return {
    object: 'conversation' as const,
    id: conversation.id,
    ...(conversation.subject !== null ? { subject: conversation.subject } : {}),
    createdAt: conversation.createdAt,
    // Processed up to the latest post: a conversation posted again is pending until processed again.
    ...(conversation.processedAt && conversation.processedRevision === conversation.revision ? { processedAt: conversation.processedAt } : {}),
    source: conversation.source,
    urls: { location: conversationUrl(urls, conversation), ...(source && isAbsoluteUrl(source) ? { source } : {}) },
  };
}

export function presentConversationDetail(conversation: ConversationRecord, urls: Urls) {
  return { conversation: presentConversation(conversation, urls), parts: conversation.parts, metadata: conversation.metadata };
}

export function presentConversationIssue(issue: ConversationIssueRecord, urls: Urls) {
  return {
    object: 'conversation-issue' as const,
    id: issue.id,
    title: issue.title,
    summary: issue.summary,
    createdAt: issue.createdAt,
    ingestedAt: issue.ingestedAt,
    conversation: issue.conversationId,
    ...(issue.clusterId ? { cluster: issue.clusterId } : {}),
    urls: { location: urls.api(`/orgs/${issue.organizationId}/conversations-issues/${issue.id}`) },
  };
}

export function presentIssueListing(item: { issue: ConversationIssueRecord; conversation: ConversationRecord }, urls: Urls) {
  return { issue: presentConversationIssue(item.issue, urls), conversation: presentConversation(item.conversation, urls) };
}

export function presentIssuesCluster(cluster: IssueClusterRecord, activity: ClusterActivity, urls: Urls) {
  return {
    object: 'issues-cluster' as const,
    id: cluster.id,
    label: cluster.label,
    createdAt: cluster.createdAt,
    updatedAt: cluster.updatedAt,
    icon: cluster.icon,
    summary: cluster.summary,
    weeklyPulse: activity.weeklyPulse,
    sources: activity.sources,
    // Quire has no tasks: their counts are zero.
    stats: { issues: cluster.issues, conversations: cluster.conversations, tasksTotal: 0, tasksBacklog: 0, tasksStarted: 0, tasksCompleted: 0, tasksCancelled: 0 },
    urls: {
      location: urls.api(`/orgs/${cluster.organizationId}/conversations-clusters/${cluster.id}`),
      app: urls.app(`/o/${cluster.organizationId}/conversations/clusters/${cluster.id}`),
    },
  };
}
