import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

// libphonenumber's full metadata takes about 12 MB once loaded: loaded on the first redaction.
const require = createRequire(import.meta.url);
let phoneNumbers: typeof import('libphonenumber-js/max') | undefined;
const findPhoneNumbersInText: typeof import('libphonenumber-js/max').findPhoneNumbersInText = (...args) =>
  (phoneNumbers ??= require('libphonenumber-js/max') as typeof import('libphonenumber-js/max')).findPhoneNumbersInText(...args);

/** What personal data was found, by kind: the test and the logs say what went, never what it was. */
export type RedactedKind = 'email' | 'phone' | 'card' | 'token';

/** Card numbers: 13 to 19 digits, with up to two separators (spaces, dots, slashes, hyphens) between any two. */
const cardLike = /(?<!\d)\d(?:[ ./-]{0,2}\d){12,18}(?!\d)/g;
/** Well-known secret shapes: provider keys, JWTs, bearer credentials. */
const knownTokens = [
  /\b(?:sk|pk|rk)[-_](?:live|test)[-_][A-Za-z0-9]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];
/**
 * A credential named before its value: `password is hunter2hunter`, `pw= Sup3r$ecret!`,
 * `Authorization: Bearer …`. Every repetition is bounded, so no input makes the match backtrack
 * more than a few hundred steps from one place.
 */
const namedCredential =
  /\b(Bearer|Basic|token|api[-_ ]?key|password|passwd|passcode|passphrase|pwd|pw|pass|pin|secret)\b([ \t]{0,3}(?:is|was|:|=|=>|->)?[ \t:=]{0,3})([^\s"'<>]{5,200}[^\s"'<>.,;:!?)])/gi;
/** Long runs of letters and digits mixed: keys and hashes nobody types as words. */
const opaque = /\b[A-Za-z0-9_-]{24,}\b/g;
const isOpaque = (text: string) => /\d/.test(text) && /[A-Za-z]/.test(text) && !/^[a-z]+(?:[-_][a-z]+)*$/.test(text);

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What an email address may hold on either side of its `@` (internationalised ones too), and how long each side may be. */
const localChar = /[\p{L}\p{M}\p{N}._%+'-]/u;
const domainChar = /[\p{L}\p{M}\p{N}.-]/u;
const maxLocal = 64;
const maxDomain = 255;

/**
 * Email addresses, found from each `@` outwards over at most 64 characters before it and 255
 * after, so the cost is linear in the text whatever it holds (a pattern scanning for the local
 * part first backtracks quadratically on `a.a.a.…`). A domain needs no dot: `admin@localhost`.
 */
function replaceEmails(text: string, mark: () => string): string {
  let out = '';
  let kept = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > kept && at - start < maxLocal && localChar.test(text[start - 1]!)) start -= 1;
    while (start < at && text[start] === '.') start += 1;
    let end = at + 1;
    while (end < text.length && end - at <= maxDomain && domainChar.test(text[end]!)) end += 1;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end -= 1;
    if (start === at || end === at + 1 || !/^[\p{L}\p{N}]/u.test(text[at + 1]!)) continue;
    out += text.slice(kept, start) + mark();
    kept = end;
    at = end - 1;
  }
  return out + text.slice(kept);
}

/**
 * The text with personal data replaced by `[email]`, `[phone]`, `[card]` and `[token]`. Runs on
 * everything a conversation brings before any of it is stored; `found` says which kinds were there.
 * The text is normalised first (NFKC: fullwidth `＠` and digits, non-breaking spaces become their
 * plain forms), so look-alike characters don't slip past; what is stored is the normalised text.
 * Every pattern is linear in the text.
 */
export function redact(text: string, found?: Set<RedactedKind>): string {
  const mark = (kind: RedactedKind) => {
    found?.add(kind);
    return `[${kind}]`;
  };
  let out = replaceEmails(text.normalize('NFKC'), () => mark('email'));
  for (const pattern of knownTokens) out = out.replace(pattern, () => mark('token'));
  out = out.replace(namedCredential, (_match, name: string, separator: string) => `${name}${separator}${mark('token')}`);
  out = out.replace(opaque, (match) => (isOpaque(match) ? mark('token') : match));
  out = out.replace(cardLike, (match) => (luhn(match.replace(/\D/g, '')) ? mark('card') : match));
  let scanned = 0;
  return out.replace(phoneRun, (run) => {
    if ((run.match(/\d/g)?.length ?? 0) < 7) return run;
    scanned += run.length;
    if (scanned > phoneScanBudget) return run.replace(phoneStretch, () => mark('phone'));
    let redacted = run;
    for (const phone of findPhoneNumbersInText(run, 'US').reverse()) redacted = redacted.slice(0, phone.startsAt) + mark('phone') + redacted.slice(phone.endsAt);
    return redacted;
  });
}

/**
 * Phone numbers are looked for in runs of digits and the punctuation numbers are written with;
 * the shortest valid number anywhere has 7 digits with its country code, so shorter runs are
 * skipped. libphonenumber reads about 10 µs a character of such runs (64 KB of `1 2 3 …` took
 * 0.8 s), so it reads the first 16 KB of them in a text; past that, every stretch of 7 to 17
 * digits is taken for a phone number: more is hidden in number-dense text, never less.
 */
const phoneRun = /\+?\(?\d[\d \t().\/-]*\d/g;
const phoneScanBudget = 16_384;
const phoneStretch = /\+?\d(?:[ \t().\/-]{0,2}\d){6,16}/g;

/** A URL redacted: the markers percent-encoded, so it stays a URL. */
export function redactUrl(url: string): string {
  return redact(url).replace(/\[(email|phone|card|token)\]/g, '%5B$1%5D');
}

/** A posted conversation, as far as redaction reads it. */
export interface PostToRedact {
  id: string;
  subject?: string;
  parts: Array<{ type: string; role: string; body: string }>;
  metadata?: { url?: string; attributes?: Record<string, string>; createdAt?: string };
}

/**
 * An id that holds personal data (a ticket system keyed by the requester's email) becomes a stable
 * hash of it within the organization: posting the same conversation again still finds it.
 */
export function storedConversationId(organizationId: string, id: string): string {
  if (redact(id) === id.normalize('NFKC')) return id;
  return `redacted-${createHash('sha256').update(`${organizationId}\n${id}`).digest('hex').slice(0, 32)}`;
}

/** Everything a post brings redacted: subject, parts, URL, attribute keys and values, and its id. */
export function redactPost<T extends PostToRedact>(organizationId: string, post: T): T {
  const { metadata } = post;
  return {
    ...post,
    id: storedConversationId(organizationId, post.id),
    ...(post.subject !== undefined ? { subject: redact(post.subject) } : {}),
    parts: post.parts.map((part) => ({ ...part, body: redact(part.body) })),
    ...(metadata
      ? {
          metadata: {
            ...metadata,
            ...(metadata.url !== undefined ? { url: redactUrl(metadata.url) } : {}),
            ...(metadata.attributes ? { attributes: Object.fromEntries(Object.entries(metadata.attributes).map(([key, value]) => [redact(key), redact(value)])) } : {}),
          },
        }
      : {}),
  };
}
