import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords as scrypt hashes (node:crypto, on libuv's thread pool: the event loop never waits on
 * one). The parameters are written in the hash, `scrypt$N$r$p$salt$key`, so raising them later
 * leaves older hashes readable. N = 2^15, r = 8: 32 MiB and about 60 ms a check here.
 */
const cost = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

export const passwordLimits = { min: 8, max: 1024 };

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 128 * options.N * options.r * 2 };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFKC'), salt, keyLength, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))));
}

/** What is wrong with a new password, if anything: a sentence for the person choosing it. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < passwordLimits.min) return `A password needs at least ${passwordLimits.min} characters`;
  if (password.length > passwordLimits.max) return `A password has at most ${passwordLimits.max} characters`;
  return undefined;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether the password is the one hashed; a hash Quire didn't write never matches. */
export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  const [scheme, N, r, p, salt, key] = hash.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password.slice(0, passwordLimits.max), Buffer.from(salt, 'base64url'), { N: Number(N), r: Number(r), p: Number(p) });
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/** A hash no password matches, checked against when the email is unknown: a sign-in takes as long either way. */
export const decoyHash = `scrypt$${cost.N}$${cost.r}$${cost.p}$${randomBytes(16).toString('base64url')}$${randomBytes(keyLength).toString('base64url')}`;
