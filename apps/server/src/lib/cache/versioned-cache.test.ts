import { describe, expect, it } from 'vitest';
import type { Versioned } from './versioned-cache.ts';
import { createVersionedCache } from './versioned-cache.ts';

describe('createVersionedCache', () => {
  /** A counter over a fake table: `n` rows at version `v`; counts how often it was asked. */
  function source(n: number, v = '1') {
    const s = {
      n,
      v,
      counts: 0,
      count: async (): Promise<Versioned<number>> => {
        s.counts += 1;
        return { value: s.n, version: s.v };
      },
      version: async () => s.v,
    };
    return s;
  }
  const createCache = (maxEntries = 1000) => createVersionedCache<number>(maxEntries);

  it('keeps a total while its version holds and counts again once it moves', async () => {
    const cache = createCache();
    cache.setLive(true);
    const s = source(7);
    expect(await cache.get('k', s.count, s.version)).toBe(7);
    expect(await cache.get('k', s.count, s.version)).toBe(7);
    expect(s.counts).toBe(1);
    s.n = 8;
    s.v = '2';
    expect(await cache.get('k', s.count, s.version)).toBe(8);
    expect(s.counts).toBe(2);
  });

  it('forgets every total when a change is announced', async () => {
    const cache = createCache();
    cache.setLive(true);
    const s = source(3);
    await cache.get('a', s.count, s.version);
    await cache.get('b', s.count, s.version);
    expect(cache.size).toBe(2);
    cache.invalidate();
    expect(cache.size).toBe(0);
    // the same version (a writer whose events id is older than one already seen): counted again
    s.n = 4;
    expect(await cache.get('a', s.count, s.version)).toBe(4);
  });

  it('does not keep a count during which a change arrived', async () => {
    const cache = createCache();
    cache.setLive(true);
    const s = source(5);
    const slow = async () => {
      const counted = await s.count();
      cache.invalidate();
      return counted;
    };
    expect(await cache.get('k', slow, s.version)).toBe(5);
    expect(cache.size).toBe(0);
  });

  it('neither keeps nor serves totals while changes may be missed', async () => {
    const cache = createCache();
    const s = source(1);
    await cache.get('k', s.count, s.version);
    await cache.get('k', s.count, s.version);
    expect(s.counts).toBe(2);
    expect(cache.size).toBe(0);
    cache.setLive(true);
    await cache.get('k', s.count, s.version);
    cache.setLive(false);
    expect(cache.size).toBe(0);
    await cache.get('k', s.count, s.version);
    expect(s.counts).toBe(4);
  });

  it('evicts the least recently used total beyond its size', async () => {
    const cache = createCache(2);
    cache.setLive(true);
    const s = source(1);
    await cache.get('a', s.count, s.version);
    await cache.get('b', s.count, s.version);
    await cache.get('a', s.count, s.version); // a is now the most recent
    await cache.get('c', s.count, s.version); // evicts b
    expect(cache.size).toBe(2);
    const before = s.counts;
    await cache.get('a', s.count, s.version);
    expect(s.counts).toBe(before);
    await cache.get('b', s.count, s.version);
    expect(s.counts).toBe(before + 1);
  });

  it('answers but does not keep a value without a version', async () => {
    const cache = createVersionedCache<number>(10);
    cache.setLive(true);
    let computed = 0;
    const compute = async () => ({ value: ++computed, version: null });
    const version = async () => '1';
    expect(await cache.get('k', compute, version)).toBe(1);
    expect(await cache.get('k', compute, version)).toBe(2);
    expect(cache.size).toBe(0);
  });

  describe('callers that miss while the same key is computed', () => {
    /** A computation that ends when the test says so, counting how often it started. */
    function gated(value: number, version = '1') {
      const g = {
        starts: 0,
        version,
        release: () => undefined as void,
        fail: (_err: Error) => undefined as void,
        compute: (): Promise<Versioned<number>> => {
          g.starts += 1;
          const v = g.version;
          return new Promise((resolve, reject) => {
            g.release = () => resolve({ value, version: v });
            g.fail = reject;
          });
        },
        read: async () => g.version,
      };
      return g;
    }
    const settle = () => new Promise((r) => setTimeout(r, 0));

    it('wait for that computation and share its value (one computation on a cold start)', async () => {
      const cache = createCache();
      cache.setLive(true);
      const g = gated(42);
      const answers = Promise.all([1, 2, 3, 4, 5].map(() => cache.get('k', g.compute, g.read)));
      await settle();
      g.release();
      expect(await answers).toEqual([42, 42, 42, 42, 42]);
      expect(g.starts).toBe(1);
      expect(cache.size).toBe(1);
    });

    it('compute their own when the version moved while it ran', async () => {
      const cache = createCache();
      cache.setLive(true);
      const first = gated(1, '1');
      const owner = cache.get('k', first.compute, first.read);
      await settle();
      let own = 0;
      const joiner = cache.get(
        'k',
        async () => ({ value: 2, version: String(++own + 1) }),
        async () => '2',
      );
      await settle();
      first.release();
      expect(await owner).toBe(1);
      expect(await joiner).toBe(2);
      expect(own).toBe(1);
    });

    it('compute their own when it failed', async () => {
      const cache = createCache();
      cache.setLive(true);
      const g = gated(7);
      const owner = cache.get('k', g.compute, g.read);
      await settle();
      const joiner = cache.get('k', async () => ({ value: 8, version: '1' }), g.read);
      await settle();
      g.fail(new Error('statement timeout'));
      await expect(owner).rejects.toThrow('statement timeout');
      expect(await joiner).toBe(8);
    });

    it('do not join a computation that started before a change was announced', async () => {
      const cache = createCache();
      cache.setLive(true);
      const g = gated(1);
      const owner = cache.get('k', g.compute, g.read);
      await settle();
      cache.invalidate();
      const after = cache.get('k', async () => ({ value: 2, version: '1' }), g.read);
      expect(await after).toBe(2);
      g.release();
      expect(await owner).toBe(1);
      expect(g.starts).toBe(1);
    });

    it('do not share while changes may be missed', async () => {
      const cache = createCache();
      const g = gated(1);
      const owner = cache.get('k', g.compute, g.read);
      await settle();
      const other = cache.get('k', async () => ({ value: 2, version: '1' }), g.read);
      expect(await other).toBe(2);
      g.release();
      expect(await owner).toBe(1);
    });
  });
});
