import { afterEach, describe, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from './auth.tokens.ts';

const secret = new TextEncoder().encode('a-test-secret-of-sufficient-length-0001');
const other = new TextEncoder().encode('another-test-secret-of-sufficient-len-02');

afterEach(() => vi.useRealTimers());

describe('verifyAccessToken', () => {
  it('accepts a valid token again from what it kept, and only under the secret that signed it', async () => {
    const token = await signAccessToken({ userId: 7, sessionId: 'fam-1' }, secret, 60);
    expect(await verifyAccessToken(token, secret)).toEqual({ userId: 7, sessionId: 'fam-1' });
    expect(await verifyAccessToken(token, secret)).toEqual({ userId: 7, sessionId: 'fam-1' });
    expect(await verifyAccessToken(token, other)).toBeNull();
  });

  it('refuses a kept token once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-24T10:00:00Z'));
    const token = await signAccessToken({ userId: 8, sessionId: 'fam-2' }, secret, 60);
    expect(await verifyAccessToken(token, secret)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-24T10:00:59Z'));
    expect(await verifyAccessToken(token, secret)).not.toBeNull();
    vi.setSystemTime(new Date('2026-11-24T10:01:00Z'));
    expect(await verifyAccessToken(token, secret)).toBeNull();
    expect(await verifyAccessToken(token, secret)).toBeNull();
  });

  it('refuses tampered and malformed tokens', async () => {
    const token = await signAccessToken({ userId: 9, sessionId: 'fam-3' }, secret, 60);
    await verifyAccessToken(token, secret);
    const [h, p, s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: '1', sid: 'x', typ: 'access' })).toString('base64url')}.${s}`;
    expect(await verifyAccessToken(forged, secret)).toBeNull();
    expect(await verifyAccessToken(`${h}.${p}.`, secret)).toBeNull();
    expect(await verifyAccessToken('not-a-token', secret)).toBeNull();
  });
});
