import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';
import { PASSWORD_MESSAGES, PASSWORD_MIN_LENGTH, hasControlCharacter } from '@soc/contracts';
import { badRequest } from './http-errors.ts';
import { localized } from './messages.ts';

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
  common ??= new Set(commonDictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/** The least zxcvbn score (0–4) a new password needs: 3 is "safely unguessable" (about 10^8 guesses and more). */
export const PASSWORD_MIN_SCORE = 3;

/** Why a new password is refused. */
export type PasswordProblem = 'tooShort' | 'blank' | 'control' | 'common' | 'personal' | 'weak';

/** The refusals in the user's language (product §A5 gives the en text of the length rule). */
export const PASSWORD_POLICY_MESSAGES: Record<PasswordProblem, Record<'ru' | 'en', string>> = {
  tooShort: {
    ru: `Минимальная длина пароля — ${PASSWORD_MIN_LENGTH} символов`,
    en: PASSWORD_MESSAGES.tooShort,
  },
  blank: { ru: 'Пароль не может состоять из одних пробелов', en: 'The password may not be only spaces' },
  control: {
    ru: 'Пароль содержит недопустимые управляющие символы',
    en: 'The password contains control characters, which are not allowed',
  },
  common: {
    ru: 'Этот пароль слишком распространён. Выберите другой.',
    en: PASSWORD_MESSAGES.common,
  },
  personal: {
    ru: 'Пароль не должен содержать ваш логин, имя или адрес электронной почты',
    en: 'The password must not contain your login, name or e-mail address',
  },
  weak: {
    ru: 'Пароль слишком простой: добавьте ещё несколько слов или символов, избегайте последовательностей и повторов',
    en: 'The password is too easy to guess: add a few more words or characters and avoid sequences and repeats',
  },
};

/** What the strength check compares a password with: the user's own names. */
export interface PasswordOwner {
  username: string;
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

let zxcvbn: ZxcvbnFactory | undefined;
const strength = () =>
  (zxcvbn ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary },
    graphs: adjacencyGraphs,
    // off: near misses of listed words would cost about 200 ms of CPU a check; l33t and
    // reversed words are still matched
    useLevenshteinDistance: false,
  }));

/** Fragments of the owner's identity that a password must not be built on (3 characters or more). */
function ownWords(owner: PasswordOwner): string[] {
  const email = owner.email?.trim().toLowerCase() ?? '';
  const words = [owner.username, email, email.split('@')[0], owner.firstName, owner.lastName];
  return [...new Set(words.map((w) => (w ?? '').trim().toLowerCase()).filter((w) => w.length >= 3))];
}

/**
 * The first rule a new password breaks, or null when it is acceptable: 9 characters or more, not
 * only white space, no control characters, not on the common-password list, and a zxcvbn score of
 * at least 3 when compared with the owner's login, names and e-mail address.
 */
export function passwordProblem(password: string, owner: PasswordOwner): PasswordProblem | null {
  if (hasControlCharacter(password)) return 'control';
  if (password.trim() === '') return 'blank';
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (isCommonPassword(password)) return 'common';
  const own = ownWords(owner);
  const lower = password.toLowerCase();
  const result = strength().check(password, own);
  if (result.score >= PASSWORD_MIN_SCORE) return null;
  return own.some((w) => lower.includes(w)) ? 'personal' : 'weak';
}

/** Refuses a password that breaks the policy with a 400 on the `password` field (in the caller's language). */
export function assertPasswordPolicy(password: string, owner: PasswordOwner, field = 'password'): void {
  const problem = passwordProblem(password, owner);
  if (problem) throw badRequest({ [field]: [localized(PASSWORD_POLICY_MESSAGES[problem])] });
}

/**
 * A one-time password for an administrator's invite or reset: 16 characters of 96 random bits,
 * drawn again in the (rare) case that it breaks the policy for its owner.
 */
export function temporaryPassword(owner: PasswordOwner = { username: '' }): string {
  for (;;) {
    const password = randomBytes(12).toString('base64url');
    if (!passwordProblem(password, owner)) return password;
  }
}
