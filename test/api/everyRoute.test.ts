import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { anyone, signedIn } from '../../api/policies/index.js';
import { allRoutes } from '../../api/routes/index.js';
import type { Route } from '../../api/routes/table.js';
import { upstreamCustomization } from '../../api/schemas/upstreamCustomization.js';
import { upstreamDocument } from '../../api/schemas/upstreamDocument.js';
import { validation, type RequestSchemas } from '../../api/validate.js';
import { assertErrorIs, messages, type OrganizationFixture } from '../helpers/fixtures.js';
import type { TestServer } from '../helpers/server.js';
import { withOrganization } from '../helpers/suite.js';
import { siteWithHostname } from '../helpers/routePaths.js';
import { defaultCustomization } from '../../domain/sites/index.js';

// Sweeps the whole route table, so no operation misses the checks every operation must pass.
const test = suite('every route');
let t: TestServer;
let fx: OrganizationFixture;
let space: { id: string; revision: string };
let collection: { id: string };
let hostname = '';
let elsewhere: { id: string };
withOrganization(test, (setup) => ({ t, fx } = setup));
test.before(async () => {
  // Transfers check their target organization before their body: the target must be real.
  elsewhere = (await t.call('POST', '/v1/orgs', { token: fx.admin.token, body: { title: 'Also Acme' } })).body;
  validBodies.transferSpace = { organization: elsewhere.id };
  validBodies.transferCollection = { organization: elsewhere.id };
  space = (await t.call('POST', `/v1/orgs/${fx.org.id}/spaces`, { token: fx.admin.token, body: { title: 'Swept' } })).body;
  collection = (await t.call('POST', `/v1/orgs/${fx.org.id}/collections`, { token: fx.admin.token, body: { title: 'Swept' } })).body;
  hostname = await siteWithHostname(t, fx.org.id, fx.admin.token, 'swept.acme.test');
});

/** The route's path with the fixture's organization and space, and made-up ids for the rest. */
const concrete = (path: string, organizationId: string) =>
  '/v1' +
  path
    .replace(':organizationId', organizationId)
    .replace(':spaceId', space.id)
    .replace(':revisionId', space.revision)
    .replace(':collectionId', collection.id)
    .replace(':hostname', hostname)
    .replace(/[:*][A-Za-z]+/g, 'someId')
    .replace(/\/$/, '');
const bodyFor = (method: string) => (method === 'GET' ? undefined : {});
const schemasOf = (route: Route): RequestSchemas => (route.middleware.find((step) => validation in step) as unknown as Record<symbol, RequestSchemas | undefined>)[validation] ?? {};

/**
 * A valid body for each operation that takes one (checked below against the route's own schema),
 * so that the unknown field added to it is the only thing wrong.
 */
const validBodies: Record<string, unknown> = {
  createOrganization: { title: 'Acme' },
  streamAIResponseInSite: { input: [{ role: 'user', content: 'How do I set up?' }] },
  updateGlossaryEntries: { operations: [{ type: 'insert', translations: { en: 'space' } }] },
  updateOrganizationById: { title: 'Acme' },
  updateOrganizationAgentInstructions: { instructions: { object: 'document', nodes: [] } },
  updateMemberInOrganizationById: { role: 'read' },
  inviteUsersToOrganization: { emails: ['someone@example.com'] },
  createOrganizationTeam: { title: 'Writers' },
  updateTeamInOrganizationById: { title: 'Writers' },
  updateMembersInOrganizationTeam: { add: ['someId'] },
  addMemberToOrganizationTeamById: { role: 'member' },
  createOrganizationSAMLProvider: { label: 'Okta' },
  updateOrganizationSAMLProvider: { label: 'Okta' },
  createOrganizationInvite: { role: 'read' },
  updateOrganizationInviteById: { role: 'read' },
  createSpace: { title: 'Docs' },
  updateSpaceById: { title: 'Docs' },
  moveSpace: { parent: null },
  transferSpace: { organization: 'someId' },
  applyTemplateToSpace: { id: 'knowledge-base' },
  createChangeRequest: { subject: 'Fix' },
  updateChangeRequestById: { subject: 'Fix' },
  updateChangeRequestContent: { changes: [{ operation: 'delete_page', page: 'someId' }] },
  updateChangeRequest: { resolve: {} },
  submitChangeRequestReview: { status: 'approved' },
  requestReviewersForChangeRequest: { users: ['someId'] },
  postCommentInSpace: { body: { markdown: 'Looks good' } },
  updateCommentInSpace: { resolved: true },
  postCommentReplyInSpace: { body: { markdown: 'Thanks' } },
  updateCommentReplyInSpace: { body: { markdown: 'Thanks!' } },
  postCommentInChangeRequest: { body: { markdown: 'Looks good' } },
  updateCommentInChangeRequest: { resolved: true },
  postCommentReplyInChangeRequest: { body: { markdown: 'Thanks' } },
  updateCommentReplyInChangeRequest: { body: { markdown: 'Thanks!' } },
  createCollection: { title: 'Guides' },
  createOpenAPISpec: { slug: 'swept', source: { text: 'openapi: 3.0.0' } },
  createOrUpdateOpenAPISpecBySlug: { source: { url: 'https://example.com/openapi.yaml' } },
  updateOpenAPISpecBySlug: { visibility: 'public' },
  createTranslation: { language: 'fr', source: { space: 'someId', language: 'en' } },
  ingestConversation: { id: 'ticket-1', parts: [{ type: 'message', role: 'user', body: 'How do I export a PDF?' }] },
  updateTranslation: { instructions: { object: 'document', nodes: [] } },
  updateCollectionById: { title: 'Guides' },
  moveCollection: { parent: null },
  transferCollection: { organization: 'someId' },
  createSite: { title: 'Docs' },
  updateSiteById: { title: 'Docs' },
  updateSiteAdaptiveSchema: { jsonSchema: { type: 'object', properties: {}, additionalProperties: false } },
  createSiteShareLink: { name: 'Partners' },
  updateSiteShareLinkById: { active: false },
  addSectionToSite: { spaceId: 'someId' },
  updateSiteSectionById: { title: 'Guides' },
  moveSiteSection: {},
  addSpaceToSite: { spaceId: 'someId' },
  updateSiteSpaceById: { hidden: true },
  moveSiteSpace: {},
  addSectionGroupToSite: { title: 'Products' },
  updateSiteSectionGroupById: { title: 'Products' },
  addSectionToGroup: { sectionId: 'someId' },
  moveSiteSectionGroup: {},
  importGitRepository: { url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' },
  resolvePublishedContentByUrl: { url: 'https://docs.example.com/' },
  searchSiteContent: { query: 'setup', scope: { mode: 'all' } },
  createSiteRedirect: { source: '/old', destination: { kind: 'site-space', siteSpaceId: 'someId' } },
  updateSiteRedirectById: { source: '/older' },
  updateSitePublishingAuthById: { backend: 'custom', fallbackURL: 'https://login.example.com/' },
  updateSiteCustomizationById: defaultCustomization('Docs'),
  overrideSiteSpaceCustomizationById: { title: 'Variant', styling: { primaryColor: null } },
  getComputedRevision: { source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: { models: true } }, seed: 'seed' },
  getComputedDocument: { source: { type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } }, props: { doc: 'models' } }, seed: 'seed' },
  exportToGitRepository: { url: 'https://git.example.com/docs.git', ref: 'refs/heads/main', commitMessage: 'Docs' },
  askInOrganization: { query: 'How do I set up?' },
  updateUserById: { displayName: 'Ada' },
  trackEventsInSiteById: { events: [] },
  generateStorageUploadURL: { file: { name: 'site.zip', type: 'application/zip', size: 10 }, kind: 'import_file' },
  startImportRun: { source: { type: 'website', url: 'https://docs.example.com/' }, target: { space: 'someId' } },
  submitAgentFeedbackToSite: { subject: { kind: 'generic' }, feedback: { category: 'documentation', summary: 'Hard to find' } },
  duplicateSiteSpace: { draft: false },
  bulkUpsertSiteRedirects: { redirects: [{ source: '/old', destination: null }] },
  sortSiteStructure: { item: { type: 'site-space', id: 'someId' }, position: {} },
  aggregateSiteEvents: { range: 'last7Days' },
  submitSiteAgentFeedback: { feedback: 'Unclear', url: 'https://docs.example.com/', spaceId: 'someId', pageId: 'someId' },
  streamAskInSite: { question: 'How do I set up?', scope: { mode: 'default' } },
  inviteToSpace: { role: 'read', users: ['someId'] },
  updateUserPermissionInSpace: { role: 'read' },
  updateTeamPermissionInSpace: { role: 'read' },
  inviteToCollection: { role: 'read', teams: ['someId'] },
  updateUserPermissionInCollection: { role: 'read' },
  updateTeamPermissionInCollection: { role: 'read' },
  inviteToSite: { role: 'read', users: ['someId'] },
  updateUserPermissionInSite: { role: 'read' },
  updateTeamPermissionInSite: { role: 'read' },
};
/** A valid query for each operation that requires one. */
const validQueries: Record<string, Record<string, string>> = {
  searchSpaceContent: { query: 'setup' },
  searchOrganizationContent: { query: 'setup' },
  streamAskInOrganization: { query: 'How do I set up?' },
  getPublishedContentByUrl: { url: 'https://docs.example.com/' },
  getSiteRedirectBySource: { source: '/old' },
  getEmbedByUrl: { url: 'https://docs.example.com/' },
  getEmbedByUrlInSpace: { url: 'https://docs.example.com/' },
  getContentByUrl: { url: 'https://docs.example.com/' },
  getOrganizationAIUsage: { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z' },
};

const ajv = addFormatsModule
  .default(new Ajv({ strict: false }), ['uri', 'email', 'date-time'])
  .addSchema(upstreamDocument)
  .addSchema(upstreamCustomization);
const accepts = (schema: unknown, value: unknown) => ajv.validate(schema as object, value);

test('the valid bodies and queries below are valid for their routes, and every route that needs one has one', () => {
  const needingBody = allRoutes.filter((route) => schemasOf(route).body).map((route) => route.operationId);
  assert.equal(Object.keys(validBodies).sort(), [...needingBody].sort(), 'one valid body per route with a body schema');
  for (const route of allRoutes) {
    const schemas = schemasOf(route);
    if (schemas.body) assert.ok(accepts(schemas.body, validBodies[route.operationId]), `${route.operationId}: ${ajv.errorsText()}`);
    const required = (schemas.query as { required?: string[] } | undefined)?.required ?? [];
    if (required.length) assert.ok(accepts(schemas.query, validQueries[route.operationId]), `${route.operationId} needs a valid query: ${ajv.errorsText()}`);
  }
});

test('without a token every route but the API information answers 401', async () => {
  for (const route of allRoutes.filter((r) => r.policy !== anyone)) {
    assertErrorIs(await t.call(route.method, concrete(route.path, fx.org.id), { body: bodyFor(route.method) }), 401, messages.noToken);
  }
});

test('a member of another organization gets 404 from every organization route', async () => {
  for (const route of allRoutes.filter((r) => r.policy !== anyone && r.policy !== signedIn)) {
    const path = concrete(route.path, fx.org.id);
    assertErrorIs(await t.call(route.method, path, { token: fx.outsider.token, body: bodyFor(route.method) }), 404, messages.notFoundFor(path));
  }
});

test('an unknown query parameter beside a valid query is a 400 naming it, on every route', async () => {
  for (const route of allRoutes) {
    const query = new URLSearchParams({ ...validQueries[route.operationId], surprise: '1' });
    const body = route.method === 'GET' ? undefined : (validBodies[route.operationId] ?? {});
    const response = await t.call(route.method, `${concrete(route.path, fx.org.id)}?${query}`, { token: fx.admin.token, body });
    assertErrorIs(response, 400, 'Invalid query parameter: "surprise" is not an accepted field', `${route.method} ${route.path}`);
  }
});

test('a body field the operation doesn’t know, beside a valid body, is a 400 naming it, on every route that reads a body', async () => {
  for (const route of allRoutes.filter((r) => r.method !== 'GET')) {
    const valid = validBodies[route.operationId];
    const response = await t.call(route.method, `${concrete(route.path, fx.org.id)}?${new URLSearchParams(validQueries[route.operationId])}`, {
      token: fx.admin.token,
      body: { ...(valid as object), surprise: 1 },
    });
    const expected = valid === undefined ? 'This operation takes no request body' : 'Invalid request body: "surprise" is not an accepted field';
    assertErrorIs(response, 400, expected, `${route.method} ${route.path}`);
  }
});

test.run();
