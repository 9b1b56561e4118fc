/** The audit log: who changed what in an organization, recorded with the change itself. */
export * from './actions.js';
export * from './actor.js';
export * from './auditLog.js';
export * from './record.js';
