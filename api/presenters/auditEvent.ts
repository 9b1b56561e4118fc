import type { AuditEventRecord } from '../../storage/auditEvents.js';
import type { Urls } from '../urls.js';

/** `AuditEvent`: what a list shows. */
export function presentAuditEvent(event: AuditEventRecord, urls: Urls) {
  return {
    object: 'audit-event' as const,
    id: event.id,
    occurredAt: event.occurredAt,
    action: event.action,
    actor: { type: event.actor.type as 'user' | 'system', id: event.actor.id, ...(event.actor.label !== undefined && { label: event.actor.label }) },
    source: event.source,
    target: event.target,
    urls: { location: urls.auditEvent(event.organizationId, event.id) },
  };
}

/** `AuditEventDetails`: one event with what it recorded; the payload's form is version 1 of Quire's. */
export function presentAuditEventDetails(event: AuditEventRecord, urls: Urls) {
  return {
    ...presentAuditEvent(event, urls),
    ...(event.correlationId !== undefined && { correlationId: event.correlationId }),
    schemaVersion: 1,
    payload: event.payload,
  };
}
