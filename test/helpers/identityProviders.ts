import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/** A key pair and a self-signed certificate for it, made by openssl (valid two days). */
export function makeSigningCertificate(commonName: string): { privateKey: string; certificate: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'quire-idp-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '2', '-subj', `/CN=${commonName}`], {
      stdio: 'ignore',
    });
    return { privateKey: readFileSync(path.join(dir, 'key.pem'), 'utf8'), certificate: readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const listen = (server: Server) => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** What a SAML request asked: its id and where to answer. */
export interface SamlRequest {
  id: string;
  acs: string;
  issuer: string;
}

/** Reads the AuthnRequest of an HTTP-Redirect binding URL. */
export function readSamlRequest(url: string): SamlRequest {
  const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const attribute = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(xml)?.[1] ?? '';
  return { id: attribute('ID'), acs: attribute('AssertionConsumerServiceURL'), issuer: /<(?:saml2?:)?Issuer[^>]*>([^<]*)</.exec(xml)?.[1] ?? '' };
}

export interface SamlAnswer {
  email: string;
  name?: string;
  /** The audience the assertion names (by default the request's issuer, Quire's entity id). */
  audience?: string;
  /** Another key than the provider's: a forged assertion. */
  signWith?: { privateKey: string; certificate: string };
}

/**
 * A SAML identity provider on loopback: its sign-in URL takes an AuthnRequest (HTTP-Redirect)
 * and answers with a page whose form posts a signed Response to the ACS, as a real one does once
 * its user has signed in (here: whoever `signedIn` names).
 */
export async function startSamlIdentityProvider(): Promise<{
  url: string;
  entityId: string;
  certificate: string;
  signedIn: SamlAnswer;
  respond(request: SamlRequest, answer: SamlAnswer): string;
  close(): Promise<void>;
}> {
  const keys = makeSigningCertificate('idp.quire.test');
  const entityId = 'http://idp.quire.test/entity';
  const respond = (request: SamlRequest, answer: SamlAnswer) => signedResponse({ ...keys, ...answer.signWith }, entityId, request, answer);
  const idp = {
    url: '',
    entityId,
    certificate: keys.certificate,
    signedIn: { email: 'someone@idp.quire.test' } as SamlAnswer,
    respond,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    const request = readSamlRequest(new URL(req.url ?? '/', idp.url).href);
    const response = respond(request, idp.signedIn);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    // The auto-posting page of every SAML provider: a form, and a script that sends it.
    res.end(
      `<!doctype html><title>Signing in</title><form method="post" action="${escapeXml(request.acs)}"><input type="hidden" name="SAMLResponse" value="${escapeXml(Buffer.from(response).toString('base64'))}"><button>Continue</button></form><script>document.forms[0].submit()</script>`,
    );
  });
  idp.url = `${await listen(server)}/sso`;
  return idp;
}

function signedResponse(keys: { privateKey: string; certificate: string }, issuer: string, request: SamlRequest, answer: SamlAnswer): string {
  const now = new Date();
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  const email = escapeXml(answer.email);
  const xml = `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}" Destination="${escapeXml(request.acs)}" InResponseTo="${escapeXml(request.id)}"><saml:Issuer>${issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="_${randomUUID()}" Version="2.0" IssueInstant="${at(0)}"><saml:Issuer>${issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="${escapeXml(request.id)}" NotOnOrAfter="${at(300_000)}" Recipient="${escapeXml(request.acs)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(300_000)}"><saml:AudienceRestriction><saml:Audience>${escapeXml(answer.audience ?? request.issuer)}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="_${randomUUID()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${email}</saml:AttributeValue></saml:Attribute>${answer.name ? `<saml:Attribute Name="displayName"><saml:AttributeValue>${escapeXml(answer.name)}</saml:AttributeValue></saml:Attribute>` : ''}</saml:AttributeStatement></saml:Assertion></samlp:Response>`;
  const signature = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signature.computeSignature(xml, { location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return signature.getSignedXml();
}

/**
 * An OpenID Connect provider on loopback (oidc-provider with its development sign-in pages: any
 * login name signs in, and is the account's email). Its URL is known before the client's redirect
 * URI: start it, start Quire with its issuer, then `register` Quire's callback.
 */
export async function startOidcProvider(): Promise<{ issuer: string; clientId: string; clientSecret: string; register(redirectUri: string): Promise<void>; close(): Promise<void> }> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => (handler ? handler(req, res) : res.writeHead(503).end()));
  const issuer = await listen(server);
  const clientId = 'quire-app';
  const clientSecret = `secret-${randomUUID()}`;
  return {
    issuer,
    clientId,
    clientSecret,
    async register(redirectUri) {
      // Loaded here: it warns about Node 20 as it loads, in every suite that imports this file otherwise.
      const { default: Provider } = await import('oidc-provider');
      const provider = new Provider(issuer, {
        clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true, name: `Person ${sub.split('@')[0]}` }) }),
        features: { devInteractions: { enabled: true } },
        cookies: { keys: [randomUUID()] },
      });
      handler = provider.callback();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
