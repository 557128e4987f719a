import type { LookupAddress } from 'node:dns';
import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where the portal may send requests that a customer chose the target of (webhooks): http(s)
 * only, no credentials in the URL, and no address outside the public unicast range — private,
 * loopback, link-local (cloud metadata at 169.254.169.254), unique-local, carrier-grade NAT,
 * multicast and reserved addresses are refused unless an administrator's allow-list names them.
 * The check runs on every address a name resolves to, at connect time (`guardedLookup`), so a
 * name that resolves to a public address once and a private one later gains nothing.
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

/** Whether a request may go to address `ip`: a public unicast address, or one the allow-list names. */
export function isAllowedAddress(ip: string, allow: readonly Cidr[]): boolean {
  if (!ipaddr.isValid(ip)) return false;
  let addr = ipaddr.parse(ip);
  // ::ffff:10.0.0.1 is 10.0.0.1
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  if (allow.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range, bits))) return true;
  return addr.range() === 'unicast';
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
