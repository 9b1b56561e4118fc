import { SAML, ValidateInResponseTo, type CacheProvider } from '@node-saml/node-saml';
import type { Database } from '../../storage/db.js';
import { belongsElsewhere } from '../../storage/members.js';
import type { OrganizationRecord } from '../../storage/organizations.js';
import type { SamlProviderRecord } from '../../storage/samlProviders.js';
import { completeSignInFlow, createSignInFlow, findSignInFlow, findSignInFlowByCookie, removeSignInFlow } from '../../storage/signInFlows.js';
import { findUserByEmail } from '../../storage/users.js';
import { invalidInput, notAllowed, notAuthenticated } from '../common/errors.js';
import { providerIsUsable } from '../organizations/index.js';
import { joinThroughSaml, openProviderSession, userOfProvider } from './providerUsers.js';

/** Where the provider sends people back (the ACS) and what Quire calls itself there (its entity id). */
export interface SamlServiceUrls {
  acs: string;
  entityId: string;
}

const flowLifetimeMs = 10 * 60_000;
const emailAttributes = ['email', 'mail', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3'];
const nameAttributes = ['displayName', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241'];

/**
 * node-saml over a provider's settings: signed assertions required, checked against the provider's
 * certificate, from its entity id, addressed to Quire's entity id, answering a request of ours (`InResponseTo`, looked
 * up in the sign-in flows: any process of the instance can take the answer).
 */
function samlOf(db: Database, provider: SamlProviderRecord, urls: SamlServiceUrls, requestId?: string): SAML {
  const requests: CacheProvider = {
    saveAsync: async (key, value) => ({ createdAt: Date.now(), value }),
    getAsync: async (key) => {
      const flow = await findSignInFlow(db, key);
      return flow && flow.kind === 'saml' && flow.data.providerId === provider.id && flow.userId === null ? flow.expiresAt : null;
    },
    removeAsync: async (key) => key,
  };
  return new SAML({
    entryPoint: provider.ssoURL!,
    idpCert: provider.certificate!,
    idpIssuer: provider.entityID!,
    issuer: urls.entityId,
    audience: urls.entityId,
    callbackUrl: urls.acs,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: flowLifetimeMs,
    cacheProvider: requests,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: 60_000,
    ...(requestId ? { generateUniqueId: () => requestId } : {}),
  });
}

function usable(provider: SamlProviderRecord): void {
  if (!providerIsUsable(provider)) throw notAllowed(`The SAML provider "${provider.label}" is not set up yet: it needs a sign-in URL, an entity id and a valid certificate`);
}

/** Leaves for the provider: a flow whose id is the SAML request's, the browser's cookie naming it, and the URL of the request (HTTP-Redirect binding). */
export async function startSamlSignIn(db: Database, provider: SamlProviderRecord, input: { urls: SamlServiceUrls; next: string }): Promise<{ cookie: string; url: string }> {
  usable(provider);
  const { cookie, flow } = await createSignInFlow(db, { kind: 'saml', data: { providerId: provider.id, next: input.next }, lifetimeMs: flowLifetimeMs });
  const url = await samlOf(db, provider, input.urls, flow.id).getAuthorizeUrlAsync('', undefined, {});
  return { cookie, url };
}

/**
 * The provider's answer, posted to the ACS from the provider's page: checked (signature,
 * audience, times, that it answers one of our live requests), then the person it names is
 * recorded on that request's flow. Signing in happens in `finishSamlSignIn`, in the browser that
 * began it (its cookie): an answer posted by someone else signs no one in.
 *
 * A provider speaks for its own organization only: it may sign in someone new (they join with its
 * default role) or a member of its organization who belongs to no other one. Someone who also
 * belongs elsewhere signs in with their password or the instance's provider.
 */
export async function acceptSamlResponse(db: Database, organization: OrganizationRecord, provider: SamlProviderRecord, input: { urls: SamlServiceUrls; samlResponse: string }): Promise<void> {
  usable(provider);
  const { profile } = await samlOf(db, provider, input.urls)
    .validatePostResponseAsync({ SAMLResponse: input.samlResponse })
    .catch((error: unknown) => {
      throw notAuthenticated(`The SAML response from "${provider.label}" is not valid: ${error instanceof Error ? error.message : String(error)}`);
    });
  const requestId = profile?.inResponseTo;
  if (!profile || typeof requestId !== 'string') throw notAuthenticated(`The SAML response from "${provider.label}" answers no sign-in begun here`);
  const attribute = (names: string[]) => names.map((name) => profile[name]).find((value): value is string => typeof value === 'string' && value.length > 0);
  const email = attribute(emailAttributes) ?? (profile.nameID.includes('@') ? profile.nameID : undefined);
  if (!email) throw invalidInput(`"${provider.label}" gave no email for this person: send it as the NameID (emailAddress format) or an "email" attribute`);
  const existing = await findUserByEmail(db, email);
  if (existing && (await belongsElsewhere(db, existing.id, organization.id))) {
    throw notAllowed(`${email} belongs to other organizations too: sign in with a password or the instance's single sign-on, not "${provider.label}"`);
  }
  const name = attribute(nameAttributes);
  const user = existing ?? (await userOfProvider(db, { email, ...(name ? { name } : {}) }));
  const recorded = await db.transaction(async (tx) => {
    await joinThroughSaml(tx, organization, provider, user);
    return completeSignInFlow(tx, requestId, user.id);
  });
  if (!recorded) throw notAuthenticated('This SAML response was used already');
}

/** The browser that began a SAML sign-in finishes it: a new session for whom the provider named. */
export async function finishSamlSignIn(db: Database, input: { flowCookie: string | undefined; userAgent?: string }) {
  const flow = input.flowCookie ? await findSignInFlowByCookie(db, input.flowCookie) : undefined;
  if (!flow || flow.kind !== 'saml' || !flow.userId || !(await removeSignInFlow(db, flow.id))) throw notAuthenticated('This sign-in has expired or was begun in another browser: sign in again');
  const { cookie } = await openProviderSession(db, flow.userId!, input.userAgent, 'saml');
  return { cookie, next: flow.data.next ?? '/app/' };
}

/** Quire's SAML metadata for the provider's administrators: entity id, ACS. */
export function samlServiceMetadata(provider: SamlProviderRecord, urls: SamlServiceUrls): string {
  return new SAML({ idpCert: provider.certificate ?? 'none', issuer: urls.entityId, callbackUrl: urls.acs, wantAssertionsSigned: true }).generateServiceProviderMetadata(null, null);
}
