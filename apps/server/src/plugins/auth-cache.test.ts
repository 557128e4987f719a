import { describe, expect, it } from 'vitest';
import type { AuthUser } from '../core/auth.ts';
import { createAuthCache } from './auth-cache.ts';

const user = (id: number, over: Partial<AuthUser> = {}): AuthUser => ({
  id,
  username: `user${id}`,
  role: 'customer',
  isActive: true,
  systemIds: [1],
  sessionAlive: true,
  sessionExpiresAt: null,
  mustChangePassword: false,
  ...over,
});

/** A cache on a clock the test moves, and a reader that counts its calls. */
function setup(options: { maxAgeMs?: number; maxEntries?: number } = {}) {
  let t = 1_000_000;
  const cache = createAuthCache({
    maxAgeMs: options.maxAgeMs ?? 30_000,
    maxEntries: options.maxEntries,
    now: () => t,
  });
  cache.setLive(true);
  let reads = 0;
  const load = (id: number, sessionId: string | null = 's', answer: AuthUser | undefined = user(id)) =>
    cache.load(id, sessionId, async () => {
      reads += 1;
      return answer;
    });
  return {
    cache,
    load,
    reads: () => reads,
    advance: (ms: number) => (t += ms),
    now: () => t,
  };
}

describe('auth cache', () => {
  it('answers a repeated check from memory until its maximum age', async () => {
    const { load, reads, advance } = setup({ maxAgeMs: 30_000 });
    await load(1);
    await load(1);
    expect(reads()).toBe(1);
    advance(29_999);
    await load(1);
    expect(reads()).toBe(1);
    advance(1);
    await load(1);
    expect(reads()).toBe(2);
  });

  it('keys by session: another session of the same user is read on its own', async () => {
    const { load, reads } = setup();
    await load(1, 'a');
    await load(1, 'b');
    await load(1, null);
    expect(reads()).toBe(3);
  });

  it('never keeps an entry past the expiry of the session it vouches for', async () => {
    const { load, reads, advance, now } = setup({ maxAgeMs: 30_000 });
    await load(1, 's', user(1, { sessionExpiresAt: now() + 5_000 }));
    advance(4_999);
    await load(1);
    expect(reads()).toBe(1);
    advance(1);
    await load(1);
    expect(reads()).toBe(2);
  });

  it('never keeps a refusal', async () => {
    const { cache, load, reads } = setup();
    let unknownReads = 0;
    const unknown = async () => {
      unknownReads += 1;
      return undefined;
    };
    await cache.load(1, 's', unknown);
    await cache.load(1, 's', unknown);
    expect(unknownReads).toBe(2);
    await load(2, 's', user(2, { isActive: false }));
    await load(2, 's', user(2, { isActive: false }));
    await load(3, 's', user(3, { sessionAlive: false, sessionExpiresAt: null }));
    await load(3, 's', user(3, { sessionAlive: false, sessionExpiresAt: null }));
    expect(reads()).toBe(4);
    expect(cache.size).toBe(0);
  });

  it('keeps an OIDC caller (no session) while the account is active', async () => {
    const { load, reads } = setup();
    await load(1, null, user(1, { sessionAlive: false }));
    await load(1, null, user(1, { sessionAlive: false }));
    expect(reads()).toBe(1);
  });

  it('forgets the users a notification names, or everyone for *', async () => {
    const { cache, load, reads } = setup();
    await Promise.all([load(1), load(2), load(3), load(1, null)]);
    expect(cache.size).toBe(4);
    cache.onPayload('1,3');
    expect(cache.size).toBe(1);
    await load(2);
    expect(reads()).toBe(4);
    cache.onPayload('*');
    expect(cache.size).toBe(0);
  });

  it('forgets a user on invalidateUser', async () => {
    const { cache, load, reads } = setup();
    await load(1);
    await load(2);
    cache.invalidateUser(1);
    await load(1);
    await load(2);
    expect(reads()).toBe(3);
  });

  it('does not keep an answer read while a change arrived', async () => {
    const { cache } = setup();
    let release!: (u: AuthUser) => void;
    const first = cache.load(1, 's', () => new Promise<AuthUser>((resolve) => (release = resolve)));
    cache.onPayload('1');
    release(user(1));
    await first;
    expect(cache.size).toBe(0);
  });

  it('is bypassed while the channel is not live, and starts empty when it is again', async () => {
    const { cache, load, reads } = setup();
    await load(1);
    cache.setLive(false);
    expect(cache.size).toBe(0);
    await load(1);
    await load(1);
    expect(reads()).toBe(3);
    expect(cache.size).toBe(0);
    cache.setLive(true);
    await load(1);
    await load(1);
    expect(reads()).toBe(4);
  });

  it('is bypassed before the channel is first live', async () => {
    const cache = createAuthCache({ maxAgeMs: 30_000 });
    let reads = 0;
    const read = async () => {
      reads += 1;
      return user(1);
    };
    await cache.load(1, 's', read);
    await cache.load(1, 's', read);
    expect(reads).toBe(2);
  });

  it('evicts the least recently used entry beyond its bound', async () => {
    const { cache, load, reads } = setup({ maxEntries: 2 });
    await load(1);
    await load(2);
    await load(1);
    await load(3);
    expect(cache.size).toBe(2);
    await load(1);
    expect(reads()).toBe(3);
    await load(2);
    expect(reads()).toBe(4);
  });

  it('forgets everyone on a payload it cannot read', async () => {
    const { cache, load } = setup();
    await load(1);
    cache.onPayload('1,x');
    expect(cache.size).toBe(0);
  });
});
