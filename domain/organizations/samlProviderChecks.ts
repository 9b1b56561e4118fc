import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

/** Why an identity provider's sign-in URL can't be used: https only, http only for this machine. */
export function ssoUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopback(url.hostname)) return undefined;
  return `must be an https URL (http only for a loopback host such as localhost), got ${url.protocol.replace(/:$/, '')}`;
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return host === '::1';
}

export interface CertificateInfo {
  validFrom: Date;
  expiresAt: Date;
}

/** The identity provider's signing certificate, PEM or the bare base64 DER SAML metadata carries. */
export function parseCertificate(text: string): CertificateInfo | { problem: string } {
  try {
    const certificate = text.includes('-----BEGIN') ? new X509Certificate(text) : new X509Certificate(Buffer.from(text.replace(/\s+/g, ''), 'base64'));
    return { validFrom: new Date(certificate.validFrom), expiresAt: new Date(certificate.validTo) };
  } catch (error) {
    return { problem: `is not an X.509 certificate (PEM, or base64 DER): ${(error as Error).message}` };
  }
}

/** A provider signs users in only with a usable URL, an entity id and a certificate valid today. */
export function providerIsUsable(provider: { ssoURL: string | null; entityID: string | null; certificate: string | null }, now = new Date()): boolean {
  if (!provider.ssoURL || ssoUrlProblem(provider.ssoURL) || !provider.entityID || !provider.certificate) return false;
  const certificate = parseCertificate(provider.certificate);
  return !('problem' in certificate) && certificate.validFrom <= now && now < certificate.expiresAt;
}

/** What is wrong with a provider's settings as given (its sign-in URL, its certificate), naming the field; undefined when nothing. */
export function samlProviderFieldsProblem(fields: { ssoURL?: string | null; certificate?: string | null }, now = new Date()): string | undefined {
  const urlProblem = fields.ssoURL ? ssoUrlProblem(fields.ssoURL) : undefined;
  if (urlProblem) return `"ssoURL" ${urlProblem}`;
  if (fields.certificate) {
    const certificate = parseCertificate(fields.certificate);
    if ('problem' in certificate) return `"certificate" ${certificate.problem}`;
    if (certificate.expiresAt <= now) return `"certificate" expired on ${certificate.expiresAt.toISOString()}`;
  }
  return undefined;
}
