import { createRequire } from 'node:module';

// libphonenumber's full metadata takes about 12 MB once loaded: loaded on the first redaction.
const require = createRequire(import.meta.url);
let phoneNumbers: typeof import('libphonenumber-js/max') | undefined;
const findPhoneNumbersInText: typeof import('libphonenumber-js/max').findPhoneNumbersInText = (...args) =>
  (phoneNumbers ??= require('libphonenumber-js/max') as typeof import('libphonenumber-js/max')).findPhoneNumbersInText(...args);

/** What personal data was found, by kind: the test and the logs say what went, never what it was. */
export type RedactedKind = 'email' | 'phone' | 'card' | 'token';

const email = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
const cardLike = /\b\d(?:[ -]?\d){12,18}\b/g;
/** Well-known secret shapes: provider keys, JWTs, bearer credentials. */
const knownTokens = [
  /\b(?:sk|pk|rk)[-_](?:live|test)[-_][A-Za-z0-9]{8,}/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  /(?<=\b(?:Bearer|Basic|token|apikey|api_key|api-key|password|passwd|secret)[\s:=]+)[^\s"'<>]{7,}[^\s"'<>.,;:!?)]/gi,
];
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

/**
 * The text with personal data replaced by `[email]`, `[phone]`, `[card]` and `[token]`. Runs on
 * everything a conversation brings before any of it is stored; `found` says which kinds were there.
 */
export function redact(text: string, found?: Set<RedactedKind>): string {
  const mark = (kind: RedactedKind) => {
    found?.add(kind);
    return `[${kind}]`;
  };
  let out = text.replace(email, () => mark('email'));
  for (const pattern of knownTokens) out = out.replace(pattern, () => mark('token'));
  out = out.replace(opaque, (match) => (isOpaque(match) ? mark('token') : match));
  out = out.replace(cardLike, (match) => (luhn(match.replace(/\D/g, '')) ? mark('card') : match));
  const phones = findPhoneNumbersInText(out, 'US');
  for (const phone of phones.reverse()) out = out.slice(0, phone.startsAt) + mark('phone') + out.slice(phone.endsAt);
  return out;
}

/** A URL redacted: the markers percent-encoded, so it stays a URL. */
export function redactUrl(url: string): string {
  return redact(url).replace(/\[(email|phone|card|token)\]/g, '%5B$1%5D');
}
