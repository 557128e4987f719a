import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane. */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, OPTIONS);

/**
 * Stored instead of a hash for an account that signs in only through an identity provider
 * (created by OIDC `auto_create`): no password matches it. Such an account is not a "local"
 * one, so a provider may link to it by verified e-mail; an account with a password never.
 */
export const NO_PASSWORD = '!external';

/** False for an account that has no portal password of its own. */
export const hasUsablePassword = (storedHash: string): boolean => !storedHash.startsWith('!');

export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  if (!hasUsablePassword(storedHash)) {
    // as long as a real check, so that timing does not tell such accounts apart
    await burnPasswordCheck(password);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/**
 * Verifies against a throw-away hash so that an unknown username costs the same time as a
 * wrong password.
 */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  await verifyPassword(await dummyHash, password);
}

let common: Set<string> | undefined;
/**
 * True for a password on the bundled list of common and breached passwords (about 49,000 from
 * zxcvbn-ts's `passwords-common`, offline), compared without case.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
