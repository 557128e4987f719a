import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the portal may send requests that a customer chose the target of (webhooks): http(s)
 * only, no credentials in the URL, and no address outside the public unicast range unless an
 * administrator's allow-list names it. Refused: every range of the IANA IPv4 and IPv6
 * special-purpose address registries (private, loopback, link-local with cloud metadata at
 * 169.254.169.254, carrier-grade NAT, unique-local, documentation, benchmarking, ORCHID,
 * discard-only, Teredo, AS112, AMT, …), multicast, and every IPv6 address outside the global
 * unicast block 2000::/3 (so the deprecated IPv4-compatible `::a.b.c.d` too). An IPv6 address
 * that carries an IPv4 one (IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`, 6to4
 * `2002:aabb:ccdd::`) is judged by that IPv4 address, so no spelling of a refused IPv4 address
 * passes. The check runs on every address a name resolves to, at connect time (`guardedLookup`),
 * so a name that resolves to a public address once and a private one later gains nothing.
 */

export class SsrfError extends Error {
  constructor(
    message: string,
    /** What was wrong: the URL itself, a refused address, or a name that did not resolve. */
    readonly reason: 'shape' | 'address' | 'unresolved' = 'address',
  ) {
    super(message);
    this.name = 'SsrfError';
  }
}

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

/** The allow-list as parsed ranges (invalid entries were refused when the configuration loaded). */
export const parseCidrs = (cidrs: readonly string[]): Cidr[] => cidrs.map((c) => ipaddr.parseCIDR(c));

/** IPv6 global unicast (RFC 4291); every other IPv6 block is special or unassigned. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
/** The NAT64 well-known prefix (RFC 6052): its last 32 bits are the IPv4 destination. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

const ipv4Of = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 address an IPv6 address stands for (mapped, NAT64 or 6to4), if it is such a form. */
function embeddedIPv4(addr: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (addr.isIPv4MappedAddress()) return addr.toIPv4Address();
  const p = addr.parts;
  if (addr.match(NAT64)) return ipv4Of(p[6]!, p[7]!);
  if (addr.range() === '6to4') return ipv4Of(p[1]!, p[2]!);
  return null;
}

const named = (addr: ipaddr.IPv4 | ipaddr.IPv6, allow: readonly Cidr[]) =>
  allow.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits));

/**
 * Whether a request may go to address `ip`: a public unicast address, or one the allow-list
 * names. ipaddr.js names the special-purpose ranges (`range()` is `unicast` for none of them).
 */
export function isAllowedAddress(ip: string, allow: readonly Cidr[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  // ipaddr.js reads the deprecated IPv4-compatible `::a.b.c.d` as the mapped `::ffff:a.b.c.d`;
  // it is neither mapped nor in 2000::/3 (and glibc writes every ::/96 address that way)
  if (/^::[^:]*\./.test(ip)) return false;
  const addr = ipaddr.parse(ip);
  if (named(addr, allow)) return true;
  if (addr.kind() === 'ipv4') return addr.range() === 'unicast';
  const v6 = addr as ipaddr.IPv6;
  const v4 = embeddedIPv4(v6);
  if (v4) return named(v4, allow) || v4.range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(GLOBAL_UNICAST);
}

/** Refuses a URL that is not http(s) or carries credentials (before any name is resolved). */
export function checkUrlShape(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new SsrfError('not a URL', 'shape');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new SsrfError('only http and https', 'shape');
  if (parsed.username || parsed.password) throw new SsrfError('credentials in the URL', 'shape');
  return parsed;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Resolves the URL's host and refuses it when any of its addresses is not allowed. Literal
 * addresses are checked without a lookup (node connects to them without resolving).
 */
export async function assertAllowedUrl(url: string, allow: readonly Cidr[]): Promise<void> {
  const host = hostOf(checkUrlShape(url));
  const addresses = isIP(host)
    ? [host]
    : await new Promise<string[]>((resolve, reject) =>
        lookup(host, { all: true }, (err, found) =>
          err
            ? reject(new SsrfError(`cannot resolve ${host}`, 'unresolved'))
            : resolve(found.map((a) => a.address)),
        ),
      );
  const refused = addresses.find((a) => !isAllowedAddress(a, allow));
  if (refused !== undefined || !addresses.length) {
    throw new SsrfError(`address ${refused ?? '(none)'} is not allowed`);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for sockets (undici's `connect.lookup`) that resolves like dns.lookup and fails the
 * connection when any address of the name is not allowed.
 */
export function guardedLookup(allow: readonly Cidr[]) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      const refused = addresses.find((a) => !isAllowedAddress(a.address, allow));
      if (refused || !addresses.length) {
        return callback(
          Object.assign(new SsrfError(`address ${refused?.address ?? '(none)'} is not allowed`), {
            code: 'ESSRF',
          }),
          [],
        );
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
