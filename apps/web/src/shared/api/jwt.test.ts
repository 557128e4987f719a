import { describe, expect, it } from 'vitest';
import { makeAccessToken } from '../../test/tokens.ts';
import { decodeJwtPayload, expiresWithin, getTokenExpiry } from './jwt.ts';

describe('jwt', () => {
  it('reads the expiry of a base64url token', () => {
    const token = makeAccessToken(120);
    const expiry = getTokenExpiry(token);
    expect(expiry).not.toBeNull();
    expect(Math.abs((expiry ?? 0) - (Date.now() + 120_000))).toBeLessThan(2000);
    expect(decodeJwtPayload(token)).toMatchObject({ sub: '1' });
  });

  it('tells whether a token expires within a margin', () => {
    expect(expiresWithin(makeAccessToken(10), 30_000)).toBe(true);
    expect(expiresWithin(makeAccessToken(300), 30_000)).toBe(false);
    expect(expiresWithin(makeAccessToken(-5), 30_000)).toBe(true);
  });

  it('treats unreadable tokens as having no known expiry', () => {
    expect(getTokenExpiry('not-a-jwt')).toBeNull();
    expect(getTokenExpiry('a.%%%.c')).toBeNull();
    expect(expiresWithin('not-a-jwt', 30_000)).toBe(false);
  });
});
