import { describe, expect, it } from 'vitest';
import { curlCommand, feedUrl } from './feedUrls.ts';

describe('feed URLs', () => {
  it('put the format and the filters in the query string of an absolute URL', () => {
    const filters = new URLSearchParams({ ioc_type__in: 'ipv4,ipv6', status__in: 'closed' });
    expect(feedUrl('https://portal.example', 'txt', filters)).toBe(
      'https://portal.example/api/v0/soc/iocs/feed/?format=txt&ioc_type__in=ipv4%2Cipv6&status__in=closed',
    );
    expect(feedUrl('https://portal.example', 'stix', new URLSearchParams())).toBe(
      'https://portal.example/api/v0/soc/iocs/feed/?format=stix',
    );
  });

  it('quote the URL in the curl command and send the token as a bearer token', () => {
    expect(curlCommand('https://p.example/f/?a=1&b=2', '<token>')).toBe(
      'curl -sf -H "Authorization: Bearer <token>" "https://p.example/f/?a=1&b=2"',
    );
  });
});
