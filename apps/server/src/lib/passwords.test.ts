import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MESSAGES } from '@soc/contracts';
import { DEMO_PASSWORD } from '../demo/generator.ts';
import { BUILT_PASSWORD } from '../test/builders.ts';
import type { HttpError } from './http-errors.ts';
import {
  PASSWORD_POLICY_MESSAGES,
  assertPasswordPolicy,
  passwordProblem,
  temporaryPassword,
} from './passwords.ts';
import { inLanguage } from './messages.ts';

const carol = {
  username: 'carol',
  email: 'carol.zaitseva@customer3.example',
  firstName: 'Karina',
  lastName: 'Zaitseva',
};
const nobody = { username: 'nobody' };

describe('password policy', () => {
  it('takes the demo password and the strong passwords the tests use', () => {
    for (const password of [
      DEMO_PASSWORD,
      BUILT_PASSWORD,
      'Granite-Orchid-4417',
      'a-new-Passphrase-7291',
      'Brand-new-pass-1',
      'Another-Secret-99',
      'correct horse battery staple',
    ]) {
      expect(passwordProblem(password, carol), password).toBeNull();
    }
  });

  it('refuses fewer than 9 characters, counted as characters rather than UTF-16 units', () => {
    expect(passwordProblem('Gr4n!te8', nobody)).toBe('tooShort');
    expect(passwordProblem('😀😀😀😀😀', nobody)).toBe('tooShort');
  });

  it('refuses white space only, control characters and NUL', () => {
    expect(passwordProblem(' '.repeat(12), nobody)).toBe('blank');
    expect(passwordProblem('\u3000\u00a0\t'.repeat(4), nobody)).not.toBeNull();
    expect(passwordProblem('Granite\u0000Orchid-4417', nobody)).toBe('control');
    expect(passwordProblem('Granite\nOrchid-4417', nobody)).toBe('control');
    expect(passwordProblem('Granite\u007fOrchid-4417', nobody)).toBe('control');
    expect(passwordProblem('Granite\u0085Orchid-4417', nobody)).toBe('control');
  });

  it('never accepts a string that holds a control character or NUL', () => {
    const control = fc
      .oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f }))
      .map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), control, fc.string({ maxLength: 40 }), (before, c, after) => {
        expect(passwordProblem(`${before}${c}${after}`, nobody)).toBe('control');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses passwords of the common-password list, whatever their case', () => {
    for (const password of ['password123', 'QWERTYUIOP', 'iloveyou1', 'zaq1xsw2cde3'])
      expect(passwordProblem(password, nobody), password).toBe('common');
  });

  it('refuses guessable passwords (zxcvbn score below 3)', () => {
    for (const password of ['abcdefghi', 'Summer2024!', 'zxcvbnmasdf', 'Jennifer1990', '2024-11-25!'])
      expect(passwordProblem(password, nobody), password).toBe('weak');
  });

  it('refuses passwords built on the user’s own login, names or e-mail', () => {
    for (const password of [
      'carol2026!',
      'Carol-Carol-1',
      'carol.zaitseva@customer3.example',
      'zaitseva2026',
    ])
      expect(passwordProblem(password, carol), password).toBe('personal');
    // the same string is fine for someone else
    expect(passwordProblem('Zaitseva-Granite-77', nobody)).toBeNull();
  });

  it('draws temporary passwords that meet the policy', () => {
    for (let i = 0; i < 30; i++) {
      const password = temporaryPassword(carol);
      expect(password).toHaveLength(16);
      expect(passwordProblem(password, carol)).toBeNull();
    }
  });

  it('answers a 400 on the password field in the caller’s language', () => {
    const refusal = () => {
      try {
        assertPasswordPolicy('carol2026!', carol);
      } catch (err) {
        return err as HttpError;
      }
      throw new Error('accepted');
    };
    expect(refusal().statusCode).toBe(400);
    expect(inLanguage(refusal().fields, 'en')).toEqual({ password: [PASSWORD_POLICY_MESSAGES.personal.en] });
    expect(inLanguage(refusal().fields, 'ru')).toEqual({ password: [PASSWORD_POLICY_MESSAGES.personal.ru] });
    expect(PASSWORD_POLICY_MESSAGES.personal.ru).toMatch(/логин/);
    expect(PASSWORD_POLICY_MESSAGES.common.en).toBe(PASSWORD_MESSAGES.common);
    expect(() => assertPasswordPolicy(DEMO_PASSWORD, carol)).not.toThrow();
  });
});
