import { describe, expect, it } from 'vitest';
import { sigmaYaml } from '../../test/sigma-fixtures.ts';
import { SIGMA_MAX_NESTING, nestingDepth, readSigmaYaml } from './rules.sigma-yaml.ts';
import { YamlReadAborted, readYamlOffThread } from './rules.yaml-reader.ts';

/** 400 KB of nested `[`: parsed on the event loop it held every request for 3.6 s (issue 37 item 2). */
const deepBrackets = () => `title: deep\nid: x\nlist: ${'['.repeat(400_000)}`;
/** Flat, so it passes the nesting check, yet the parser checks its keys pairwise: minutes of work. */
const manyKeys = () => Array.from({ length: 40_000 }, (_, i) => `k${i}: [1, {a: b}]`).join('\n');

describe('the nesting check before parsing', () => {
  it('finds deep flow collections and one-line block sequences, not quoted brackets', () => {
    expect(nestingDepth(sigmaYaml({ id: 'a', title: 'Plain' }))).toBeLessThan(5);
    expect(nestingDepth(deepBrackets())).toBeGreaterThan(SIGMA_MAX_NESTING);
    expect(nestingDepth(`a:\n  ${'- '.repeat(100)}x`)).toBeGreaterThan(SIGMA_MAX_NESTING);
    expect(nestingDepth(`a: {b: [[1], {c: [2]}]}`)).toBe(4);
    expect(nestingDepth(`a: '${'['.repeat(500)}'\nb: "${'{'.repeat(500)}"\n# ${'['.repeat(500)}`)).toBe(0);
    expect(nestingDepth(manyKeys())).toBe(2);
  });
});

describe('YAML parsed in a worker thread', () => {
  it('answers what the parser answers on the main thread, in order', async () => {
    const texts = [
      { name: 'a.yml', text: sigmaYaml({ id: 'a', title: 'First' }) },
      { name: 'b.yml', text: 'a: [unclosed' },
      { name: 'c.yml', text: '- not a mapping' },
      { name: 'd.yml', text: 'a: 1\n---\nb: 2' },
    ];
    const reads = await readYamlOffThread(texts);
    expect(reads).toEqual(texts.map((t) => readSigmaYaml(t.text)));
    expect(reads.map((r) => r.ok)).toEqual([true, false, false, true]);
  });

  it('stops a file past its time and names it, the event loop answering meanwhile', async () => {
    const started = performance.now();
    let ticks = 0;
    const tick = setInterval(() => ticks++, 20);
    const read = readYamlOffThread(
      [
        { name: 'fine.yml', text: 'a: 1' },
        { name: 'slow.yml', text: manyKeys() },
      ],
      { fileMs: 500, totalMs: 60_000, heapMb: 256 },
    );
    const err = await read.then(
      () => null,
      (e: unknown) => e,
    );
    clearInterval(tick);
    expect(err).toBeInstanceOf(YamlReadAborted);
    expect(err).toMatchObject({ file: 'slow.yml', reason: 'time', ms: 500 });
    // stopped at its limit, not after the minutes a full parse takes
    expect(performance.now() - started).toBeLessThan(30_000);
    // timers ran while the worker parsed: the loop was not held
    expect(ticks).toBeGreaterThan(5);
  });

  it('stops a file past the total time of the import', async () => {
    const err = await readYamlOffThread([{ name: 'slow.yml', text: manyKeys() }], {
      fileMs: 60_000,
      totalMs: 300,
      heapMb: 256,
    }).catch((e: unknown) => e);
    expect(err).toMatchObject({ file: 'slow.yml', reason: 'time', ms: 300 });
  });
});
