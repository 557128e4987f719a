import { describe, expect, it } from 'vitest';
import {
  SsrfError,
  assertAllowedUrl,
  checkUrlShape,
  guardedLookup,
  isAllowedAddress,
  parseCidrs,
} from './ssrf-guard.ts';

const none = parseCidrs([]);

describe('SSRF guard', () => {
  it('allows public unicast addresses only', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) {
      expect(isAllowedAddress(ip, none), ip).toBe(true);
    }
    for (const ip of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.1',
      '127.0.0.1',
      '0.0.0.0',
      '169.254.169.254',
      '100.100.100.200',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      '::ffff:127.0.0.1',
      '::ffff:10.1.1.1',
      'not-an-ip',
    ]) {
      expect(isAllowedAddress(ip, none), ip).toBe(false);
    }
  });

  it('allows private ranges that the administrator’s list names, and only those', () => {
    const allow = parseCidrs(['10.20.0.0/16', '127.0.0.1/32']);
    expect(isAllowedAddress('10.20.3.4', allow)).toBe(true);
    expect(isAllowedAddress('10.21.3.4', allow)).toBe(false);
    expect(isAllowedAddress('127.0.0.1', allow)).toBe(true);
    expect(isAllowedAddress('::ffff:127.0.0.1', allow)).toBe(true);
    expect(isAllowedAddress('127.0.0.2', allow)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', allow)).toBe(false);
  });

  it('refuses other schemes and credentials in URLs', () => {
    expect(() => checkUrlShape('ftp://example.com/')).toThrow(SsrfError);
    expect(() => checkUrlShape('http://u:p@example.com/')).toThrow(/credentials/);
    expect(() => checkUrlShape('https://example.com/hook')).not.toThrow();
  });

  it('checks literal addresses without resolving, and every address a name resolves to', async () => {
    await expect(assertAllowedUrl('http://169.254.169.254/latest/', none)).rejects.toThrow(/not allowed/);
    await expect(assertAllowedUrl('http://[::1]:80/', none)).rejects.toThrow(/not allowed/);
    await expect(
      assertAllowedUrl('http://127.0.0.1:80/', parseCidrs(['127.0.0.0/8'])),
    ).resolves.toBeUndefined();
    // "localhost" resolves to loopback addresses only
    await expect(assertAllowedUrl('http://localhost:80/', none)).rejects.toThrow(SsrfError);
  });

  it('fails a connection whose name resolves to a refused address', async () => {
    const lookup = guardedLookup(none);
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      lookup('localhost', {}, (e) => resolve(e)),
    );
    expect(err?.code).toBe('ESSRF');
    const ok = await new Promise<string | undefined>((resolve) =>
      guardedLookup(parseCidrs(['127.0.0.0/8', '::1/128']))('localhost', {}, (e, address) =>
        resolve(e || typeof address !== 'string' ? undefined : address),
      ),
    );
    expect(ok).toMatch(/^(127\.|::1)/);
  });
});
