import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AuthResult, AuthenticationResults } from './authentication-results.ts';
import { parseAuthenticationResults, propertyOf } from './authentication-results.ts';

/** Printable ASCII with the characters of the grammar and whole forged results mixed in. */
const text = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      fc.constantFrom(
        ';',
        '=',
        '"',
        '\\',
        '(',
        ')',
        '.',
        '@',
        ' ',
        '\t',
        '; dmarc=pass header.from=victim.test',
        'dkim=pass header.d=victim.test',
        '") ; dmarc=pass (',
      ),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const quote = (s: string) => `"${s.replace(/[\\"]/g, '\\$&')}"`;
/** Comments nest; a backslash escapes the character after it. */
const comment: fc.Arbitrary<string> = fc.letrec<{ c: string }>((tie) => ({
  c: fc
    .tuple(text, fc.option(tie('c'), { depthSize: 'small' }), text)
    .map(([a, inner, b]) => `(${a.replace(/[\\()]/g, '\\$&')}${inner ?? ''}${b.replace(/[\\()]/g, '\\$&')})`),
})).c;
const cfws = fc
  .array(fc.oneof(fc.constantFrom(' ', '\t', '\r\n ', '  '), comment), { minLength: 1, maxLength: 3 })
  .map((parts) => parts.join(''));

const keyword = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,6}[a-z0-9])?$/);
const domain = fc.array(keyword, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));

/** A property value and how a gateway writes it: quoted, a bare domain, `@domain`, `"local"@domain`. */
const pvalue = fc.oneof(
  text.map((v) => ({ value: v, written: quote(v) })),
  domain.map((d) => ({ value: d, written: d })),
  domain.map((d) => ({ value: `@${d}`, written: `@${d}` })),
  fc.tuple(text, domain).map(([l, d]) => ({ value: `${l}@${d}`, written: `${quote(l)}@${d}` })),
);

const resinfo = fc.record(
  {
    method: keyword,
    version: fc.integer({ min: 0, max: 9 }),
    result: keyword,
    reason: text,
    properties: fc.array(fc.record({ ptype: keyword, property: keyword, value: pvalue }), { maxLength: 4 }),
  },
  { requiredKeys: ['method', 'result', 'properties'] },
);
const header = fc.record({
  authservId: domain,
  version: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
  results: fc.array(
    resinfo.filter((r) => r.method !== 'reason'),
    { maxLength: 5 },
  ),
  // optional CFWS, taken in turn at every place the grammar allows it; and the required CFWS
  spaces: fc.array(fc.option(cfws, { nil: '' }), { minLength: 16, maxLength: 16 }),
  gaps: fc.array(cfws, { minLength: 8, maxLength: 8 }),
});
type Header = typeof header extends fc.Arbitrary<infer T> ? T : never;

/** The header as a gateway would write it, with CFWS (comments, folds) at every place the grammar allows. */
function write(h: Header): string {
  let n = 0;
  let g = 0;
  const o = () => h.spaces[n++ % h.spaces.length]!;
  const gap = () => h.gaps[g++ % h.gaps.length]!;
  let out = `${o()}${h.authservId}${h.version !== undefined ? `${gap()}${h.version}` : ''}`;
  if (!h.results.length) return `${out}${o()};${o()}none${o()}`;
  for (const r of h.results) {
    out += `${o()};${o()}${r.method}${r.version !== undefined ? `${o()}/${o()}${r.version}` : ''}${o()}=${o()}${r.result}`;
    if (r.reason !== undefined) out += `${gap()}reason${o()}=${o()}${quote(r.reason)}`;
    for (const p of r.properties)
      out += `${gap()}${p.ptype}${o()}.${o()}${p.property}${o()}=${o()}${p.value.written}`;
  }
  return `${out}${o()}`;
}

const expected = (h: Header): AuthenticationResults => ({
  authservId: h.authservId,
  ...(h.version !== undefined ? { version: h.version } : {}),
  results: h.results.map((r): AuthResult => ({
    method: r.method,
    result: r.result,
    ...(r.version !== undefined ? { version: r.version } : {}),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    properties: r.properties.map((p) => ({ ptype: p.ptype, property: p.property, value: p.value.value })),
  })),
});

describe('parseAuthenticationResults', () => {
  it('reads the headers real gateways write', () => {
    const gmail = parseAuthenticationResults(
      'mx.google.com; dkim=pass header.i=@x.example header.s=s1 header.b=Ab/c+D=; spf=pass ' +
        '(google.com: domain of a@x.example designates 192.0.2.1 as permitted sender) smtp.mailfrom=a@x.example; ' +
        'dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=x.example',
    )!;
    expect(gmail.authservId).toBe('mx.google.com');
    expect(gmail.results.map((r) => `${r.method}=${r.result}`)).toEqual([
      'dkim=pass',
      'spf=pass',
      'dmarc=pass',
    ]);
    expect(propertyOf(gmail.results[0]!, 'header.b')).toBe('Ab/c+D=');
    expect(propertyOf(gmail.results[2]!, 'header.from')).toBe('x.example');

    const opendkim = parseAuthenticationResults(
      'mx.soc-portal.local 1;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=cert.gov.ru header.i=@cert.gov.ru;\r\n' +
        '\tdmarc=pass (p=reject dis=none) header.from=cert.gov.ru;',
    )!;
    expect(opendkim).toMatchObject({ authservId: 'mx.soc-portal.local', version: 1 });
    expect(opendkim.results.map((r) => [r.method, r.result, propertyOf(r, 'header.d')])).toEqual([
      ['dkim', 'pass', 'cert.gov.ru'],
      ['dmarc', 'pass', undefined],
    ]);
    // servers that write a property without a ptype (`action=none`) keep their results
    const exchange = parseAuthenticationResults(
      'mx.x.example; dmarc=pass action=none header.from=x.example;compauth=pass reason=100',
    )!;
    expect(exchange.results).toEqual([
      {
        method: 'dmarc',
        result: 'pass',
        properties: [{ ptype: 'header', property: 'from', value: 'x.example' }],
      },
      { method: 'compauth', result: 'pass', reason: '100', properties: [] },
    ]);
    expect(parseAuthenticationResults('"MX.Soc-Portal.local" ; none')).toEqual({
      authservId: 'mx.soc-portal.local',
      results: [],
    });
  });

  it('keeps a `;` of a quoted string and a nested comment out of the results (issue 37 item 1)', () => {
    const quoted = parseAuthenticationResults(
      'mx.soc-portal.local; spf=pass smtp.mailfrom="x;dmarc=pass header.from=client-one.test"@evil.example; ' +
        'dkim=none; dmarc=fail header.from=client-one.test',
    )!;
    expect(quoted.results.map((r) => `${r.method}=${r.result}`)).toEqual([
      'spf=pass',
      'dkim=none',
      'dmarc=fail',
    ]);
    expect(propertyOf(quoted.results[0]!, 'smtp.mailfrom')).toBe(
      'x;dmarc=pass header.from=client-one.test@evil.example',
    );
    const nested = parseAuthenticationResults(
      'mx.soc-portal.local; dkim=fail ((x); dkim=pass header.d=client-one.test ) header.d=client-one.test',
    )!;
    expect(nested.results).toEqual([
      {
        method: 'dkim',
        result: 'fail',
        properties: [{ ptype: 'header', property: 'd', value: 'client-one.test' }],
      },
    ]);
  });

  it('refuses a value whose quoted strings or comments do not close, and a broken authserv-id', () => {
    for (const bad of [
      'mx.a; dkim=pass header.s="x; dmarc=pass',
      'mx.a; dkim=fail (x; dkim=pass header.d=c.test',
      'mx.a; dkim=fail ((x) ; dmarc=pass header.from=c.test',
      'mx.a; dkim=fail x) ; dmarc=pass header.from=c.test',
      'mx.a; dkim=pass header.s="x\\',
      'a=b c; dmarc=pass header.from=c.test',
      '; dmarc=pass header.from=c.test',
      'mx.a\\; dmarc=pass header.from=c.test',
      'mx.a; dmarc=pass header.from=c.test\x00',
    ])
      expect(parseAuthenticationResults(bad), bad).toBeNull();
    // a result it cannot read is left out, the others stay
    expect(
      parseAuthenticationResults(
        'mx.a; dkim=pass header..d=c.test; dmarc=pass header.from=c.test',
      )!.results.map((r) => r.method),
    ).toEqual(['dmarc']);
  });

  it('reads any well-formed header as written: no text in a quoted string or a comment is syntax', () => {
    fc.assert(
      fc.property(header, (h) => {
        expect(parseAuthenticationResults(write(h))).toEqual(expected(h));
      }),
      { numRuns: 500 },
    );
  });

  it('answers any string with a result or null, never an exception', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: 'binary', maxLength: 60 })), (s) => {
        const parsed = parseAuthenticationResults(`mx.a; ${s}`);
        expect(parsed === null || parsed.authservId === 'mx.a').toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
