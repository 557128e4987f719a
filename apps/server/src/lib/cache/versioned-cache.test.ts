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
});
