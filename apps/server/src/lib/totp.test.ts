import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, openSecret, sealSecret } from './totp.ts';

// RFC 6238 appendix B, SHA-1 seed
const SEED = Buffer.from('12345678901234567890');

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC test vectors (8 digits)', () => {
    expect(hotp(SEED, Math.floor(59 / 30), 8)).toBe('94287082');
    expect(hotp(SEED, Math.floor(1111111109 / 30), 8)).toBe('07081804');
    expect(hotp(SEED, Math.floor(2000000000 / 30), 8)).toBe('69279037');
  });

  it('accepts the code of the current step and one step of drift, not more', () => {
    const at = 1_700_000_000_000;
    const step = Math.floor(at / 30_000);
    expect(matchTotp(SEED, hotp(SEED, step), at)).toBe(step);
    expect(matchTotp(SEED, hotp(SEED, step - 1), at)).toBe(step - 1);
    expect(matchTotp(SEED, hotp(SEED, step + 1), at)).toBe(step + 1);
    expect(matchTotp(SEED, hotp(SEED, step - 2), at)).toBeNull();
  });

  it('round-trips base32 and the sealed secret', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    const key = new TextEncoder().encode('k'.repeat(40));
    const sealed = sealSecret(SEED, key);
    expect(sealed).not.toContain(base32Encode(SEED));
    expect(openSecret(sealed, key)).toEqual(SEED);
    expect(() => openSecret(sealed, new TextEncoder().encode('x'.repeat(40)))).toThrow();
  });

  it('opens a secret sealed before a key rotation with the previous key, and only with it', () => {
    const before = new TextEncoder().encode('o'.repeat(40));
    const after = new TextEncoder().encode('n'.repeat(40));
    const sealed = sealSecret(SEED, before);
    expect(openSecret(sealed, after, before)).toEqual(SEED);
    expect(openSecret(sealSecret(SEED, after), after, before)).toEqual(SEED);
    expect(() => openSecret(sealed, after)).toThrow();
    expect(() => openSecret(sealed, after, new TextEncoder().encode('x'.repeat(40)))).toThrow();
  });
});
