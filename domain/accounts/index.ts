/** People's accounts in the web app: passwords, sign-in and the sessions it opens, their own API tokens. */
export { changeOwnPassword, endSession, sessionLifetimeMs, sessionOfCookie, sessionsOf, setPassword, signInWithPassword, type SignIn } from './sessions.js';
export { passwordLimits, passwordProblem } from './passwords.js';
export { issueOwnToken, recordTokenEvent, revokeOwnToken, tokensOf } from './tokens.js';
export { finishOidcSignIn, startOidcSignIn, type OidcSettings } from './oidc.js';
export { acceptSamlResponse, finishSamlSignIn, samlServiceMetadata, startSamlSignIn, type SamlServiceUrls } from './saml.js';
export { acceptWelcome, readWelcome, welcomeLinksFor, welcomeLifetimeMs } from './welcome.js';
export { changeOwnProfile } from './profile.js';
