/*
 * The value of an `Authentication-Results` header field (RFC 8601 §2.2), read by its grammar:
 * RFC 5322 lexical tokens first — quoted strings with quoted-pairs, comments that nest and hold
 * quoted-pairs, CFWS — and only then the `;`, `=`, `.`, `/` and `@` between them. Text inside a
 * quoted string or a comment is never syntax, so a sender's envelope address such as
 * `"x;dmarc=pass header.from=victim.example"@evil.example`, copied by the gateway into
 * `smtp.mailfrom`, stays one property value and cannot become a result of its own.
 *
 * mailauth's parser (lib/parse-dkim-headers.js, 7.x) was considered: it joins the words around a
 * comment (`pass(2048-bit)header.d=x` reads as the result `passheader.d`), splits propspecs on
 * the CFWS the grammar allows around `.` and `=`, keeps only the last result of each method but
 * DKIM, and takes the first part without `=` anywhere in the header as the authserv-id. It is
 * also an undocumented module without types, so this small parser is kept instead.
 */

type Token =
  | { kind: 'word'; text: string; gap: boolean }
  | { kind: 'quoted'; text: string; gap: boolean }
  | { kind: 'special'; text: ';' | '=' | '.' | '/' | '@'; gap: boolean };

/** A `ptype.property=value` of a result, e.g. `header.d=example.com`; ptype and property lower case. */
export interface AuthProperty {
  ptype: string;
  property: string;
  value: string;
}

/** One `method=result` of the header (a resinfo); method and result lower case. */
export interface AuthResult {
  method: string;
  /** `dkim/1` → 1 */
  version?: number;
  result: string;
  reason?: string;
  properties: AuthProperty[];
}

export interface AuthenticationResults {
  /** The server that wrote the header, lower case. */
  authservId: string;
  version?: number;
  results: AuthResult[];
}

class GrammarError extends Error {}

const WSP = new Set([' ', '\t', '\r', '\n']);
const SPECIALS = new Set([';', '=', '.', '/', '@']);
/** CTLs other than the whitespace above, which RFC 5322 allows nowhere in a header field. */
const hasControl = (value: string) =>
  [...value].some((c) => {
    const code = c.charCodeAt(0);
    return (code < 0x20 || code === 0x7f) && !WSP.has(c);
  });

/** RFC 5322 §3.2: tokens, with comments and folding whitespace dropped (they only separate). */
function lex(value: string): Token[] {
  if (hasControl(value)) throw new GrammarError('control character');
  const tokens: Token[] = [];
  let gap = false;
  let i = 0;
  while (i < value.length) {
    const c = value[i]!;
    if (WSP.has(c)) {
      gap = true;
      i++;
    } else if (c === '(') {
      // a comment, which may hold comments and quoted-pairs (RFC 5322 §3.2.2)
      let depth = 0;
      do {
        const d = value[i];
        if (d === undefined) throw new GrammarError('unterminated comment');
        if (d === '\\') i++;
        else if (d === '(') depth++;
        else if (d === ')') depth--;
        i++;
      } while (depth > 0);
      gap = true;
    } else if (c === '"') {
      // a quoted string (RFC 5322 §3.2.4); a quoted-pair stands for the character it escapes
      let text = '';
      i++;
      for (;;) {
        const d = value[i];
        if (d === undefined) throw new GrammarError('unterminated quoted string');
        if (d === '"') break;
        if (d === '\\') {
          const e = value[i + 1];
          if (e === undefined) throw new GrammarError('unterminated quoted string');
          text += e;
          i += 2;
        } else {
          text += d;
          i++;
        }
      }
      i++;
      tokens.push({ kind: 'quoted', text, gap });
      gap = false;
    } else if (c === ')' || c === '\\') {
      throw new GrammarError(`stray ${c}`);
    } else if (SPECIALS.has(c)) {
      tokens.push({ kind: 'special', text: c as ';', gap });
      gap = false;
      i++;
    } else {
      let text = '';
      while (
        i < value.length &&
        !WSP.has(value[i]!) &&
        !SPECIALS.has(value[i]!) &&
        !'()"\\'.includes(value[i]!)
      )
        text += value[i++];
      tokens.push({ kind: 'word', text, gap });
      gap = false;
    }
  }
  return tokens;
}

/** RFC 5321 Ldh-str: the Keyword of RFC 8601 (methods, results, ptypes, properties). */
const KEYWORD = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** Reads the tokens of one `;`-separated part. */
class Cursor {
  private at = 0;
  constructor(private readonly tokens: Token[]) {}
  get done() {
    return this.at >= this.tokens.length;
  }
  peek(): Token | undefined {
    return this.tokens[this.at];
  }
  special(text: string): boolean {
    const t = this.peek();
    if (t?.kind !== 'special' || t.text !== text) return false;
    this.at++;
    return true;
  }
  expect(text: string) {
    if (!this.special(text)) throw new GrammarError(`${text} expected`);
  }
  keyword(): string {
    const t = this.peek();
    if (t?.kind !== 'word' || !KEYWORD.test(t.text)) throw new GrammarError('keyword expected');
    this.at++;
    return t.text.toLowerCase();
  }
  digits(): number {
    const t = this.peek();
    if (t?.kind !== 'word' || !/^\d{1,9}$/.test(t.text)) throw new GrammarError('number expected');
    this.at++;
    return Number(t.text);
  }
  /**
   * A value (RFC 2045 token or quoted string), or `[local-part] "@" domain-name` (RFC 8601
   * pvalue): words, quoted strings, dots and `@` written together. CFWS or `;` ends it. `/` and
   * `=` are taken as part of it too, for servers that write a base64 `header.b=Ab/c+D=` without
   * the quotes the grammar wants: joined without CFWS they can start no result or property.
   */
  value(): string {
    let text = '';
    let prev: Token | undefined;
    for (let t = this.peek(); t; t = this.peek()) {
      if (t.kind === 'special' && t.text === ';') break;
      if (prev && t.gap) break;
      if (prev && prev.kind !== 'special' && t.kind !== 'special')
        throw new GrammarError('a quoted string glued to another value');
      text += t.text;
      prev = t;
      this.at++;
    }
    if (!prev) throw new GrammarError('value expected');
    return text;
  }
}

/** `method[/version]=result [reason=value] *(ptype.property=pvalue)` */
function resinfo(c: Cursor): AuthResult {
  const method = c.keyword();
  const version = c.special('/') ? c.digits() : undefined;
  c.expect('=');
  const out: AuthResult = {
    method,
    result: c.keyword(),
    properties: [],
    ...(version !== undefined ? { version } : {}),
  };
  while (!c.done) {
    const name = c.keyword();
    if (c.special('.')) {
      const property = c.keyword();
      c.expect('=');
      out.properties.push({ ptype: name, property, value: c.value() });
    } else {
      // a reasonspec, or `action=none` and the like that some servers write without a ptype
      c.expect('=');
      const text = c.value();
      if (name === 'reason') out.reason ??= text;
    }
  }
  return out;
}

/**
 * The authserv-id, version and results of an `Authentication-Results` value, or null when the
 * value is not of the RFC 8601 grammar in its lexical structure (an unterminated quoted string or
 * comment, an authserv-id that is not one value). A malformed result inside an otherwise
 * well-formed value is left out: it can only take a verdict away, never add one.
 */
export function parseAuthenticationResults(value: string): AuthenticationResults | null {
  let tokens: Token[];
  try {
    tokens = lex(value);
  } catch (err) {
    if (err instanceof GrammarError) return null;
    throw err;
  }
  const parts: Token[][] = [[]];
  for (const t of tokens) {
    if (t.kind === 'special' && t.text === ';') parts.push([]);
    else parts[parts.length - 1]!.push(t);
  }
  const head = new Cursor(parts[0]!);
  let authservId: string;
  let version: number | undefined;
  try {
    authservId = head.value().toLowerCase();
    if (!head.done) version = head.digits();
    if (!head.done) return null;
  } catch (err) {
    if (err instanceof GrammarError) return null;
    throw err;
  }
  const results: AuthResult[] = [];
  for (const part of parts.slice(1)) {
    // `; none` (no result) and an empty part (a trailing `;`) say nothing
    if (part.length === 0 || (part.length === 1 && part[0]!.kind === 'word' && /^none$/i.test(part[0]!.text)))
      continue;
    try {
      results.push(resinfo(new Cursor(part)));
    } catch (err) {
      if (!(err instanceof GrammarError)) throw err;
    }
  }
  return { authservId, ...(version !== undefined ? { version } : {}), results };
}

/** The value of `ptype.property` in a result (the first one written), as written. */
export const propertyOf = (result: AuthResult, name: `${string}.${string}`) => {
  const [ptype, property] = name.toLowerCase().split('.') as [string, string];
  return result.properties.find((p) => p.ptype === ptype && p.property === property)?.value;
};
