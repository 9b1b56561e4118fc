import * as client from 'openid-client';
import type { Database } from '../../storage/db.js';
import { createSignInFlow, findSignInFlowByCookie, removeSignInFlow } from '../../storage/signInFlows.js';
import { invalidInput, notAuthenticated } from '../common/errors.js';
import { openProviderSession, userOfProvider } from './providerUsers.js';

/** The instance's OpenID Connect provider (QUIRE_OIDC_*). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in page calls it. */
  label: string;
}

/** How long a person may spend at the provider between leaving and coming back. */
const flowLifetimeMs = 10 * 60_000;

/**
 * The provider's configuration from its discovery document, fetched once per process and again
 * after a failure (a provider down at start is not down for good). Plain http only on loopback,
 * where tests and a provider on the same machine live.
 */
const discovered = new Map<string, Promise<client.Configuration>>();
function configurationOf(settings: OidcSettings): Promise<client.Configuration> {
  const key = `${settings.issuer}\n${settings.clientId}`;
  let found = discovered.get(key);
  if (!found) {
    const issuer = new URL(settings.issuer);
    const loopback = issuer.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname);
    found = client.discovery(issuer, settings.clientId, settings.clientSecret, undefined, loopback ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 });
    found.catch(() => discovered.delete(key));
    discovered.set(key, found);
  }
  return found;
}

/**
 * Leaves for the provider: a flow holding the state, nonce and PKCE verifier the return must
 * match, the cookie that names it (this browser's), and the provider's authorization URL.
 */
export async function startOidcSignIn(db: Database, settings: OidcSettings, input: { redirectUri: string; next: string }): Promise<{ cookie: string; url: string }> {
  const configuration = await configurationOf(settings).catch((error: unknown) => {
    throw notAuthenticated(`${settings.label} can't be reached just now: ${error instanceof Error ? error.message : String(error)}`);
  });
  const checks = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier() };
  const { cookie } = await createSignInFlow(db, { kind: 'oidc', data: { ...checks, next: input.next, redirectUri: input.redirectUri }, lifetimeMs: flowLifetimeMs });
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: input.redirectUri,
    scope: 'openid email profile',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
  });
  return { cookie, url: url.href };
}

/**
 * Back from the provider: the code exchanged (state, nonce and verifier checked by openid-client),
 * the person found or created by the verified email the provider gave, and a new session. The
 * flow is used once, whatever the outcome.
 */
export async function finishOidcSignIn(db: Database, settings: OidcSettings, input: { flowCookie: string | undefined; currentUrl: URL; userAgent?: string }) {
  const flow = input.flowCookie ? await findSignInFlowByCookie(db, input.flowCookie) : undefined;
  if (!flow || flow.kind !== 'oidc' || !(await removeSignInFlow(db, flow.id))) throw notAuthenticated('This sign-in has expired or was begun in another browser: sign in again');
  const refused = input.currentUrl.searchParams.get('error');
  if (refused) throw notAuthenticated(`${settings.label} refused the sign-in: ${input.currentUrl.searchParams.get('error_description') ?? refused}`);
  const configuration = await configurationOf(settings);
  let claims: Record<string, unknown>;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, input.currentUrl, {
      pkceCodeVerifier: flow.data.verifier!,
      expectedState: flow.data.state!,
      expectedNonce: flow.data.nonce!,
    });
    const idClaims = tokens.claims()!;
    // Providers that keep the email out of the ID token give it at the userinfo endpoint.
    claims = typeof idClaims.email === 'string' ? { ...idClaims } : await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub);
  } catch (error) {
    throw notAuthenticated(`${settings.label} did not confirm the sign-in: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof claims.email !== 'string' || !claims.email.includes('@')) throw invalidInput(`${settings.label} gave no email for this account: Quire knows people by their email`);
  if (claims.email_verified === false) throw notAuthenticated(`${settings.label} has not verified the email ${claims.email}`);
  const user = await userOfProvider(db, { email: claims.email, ...(typeof claims.name === 'string' ? { name: claims.name } : {}) });
  const { cookie } = await openProviderSession(db, user.id, input.userAgent, 'oidc');
  return { cookie, next: flow.data.next ?? '/app/' };
}
