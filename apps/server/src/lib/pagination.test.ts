import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { offsetLinks, pageLinks } from './pagination.ts';

const request = (url: string) => ({ url, host: 'evil.example.net', protocol: 'https' }) as FastifyRequest;

describe('list links', () => {
  it('keep the query and point at PUBLIC_URL, also below a path prefix', () => {
    expect(
      offsetLinks(request('/api/v0/soc/incs/?search=a&offset=0'), 'https://soc.example/', 100, 40, 0),
    ).toEqual({
      next: 'https://soc.example/api/v0/soc/incs/?search=a&offset=40&limit=40',
      previous: null,
      total_exact: true,
    });
    expect(pageLinks(request('/api/v0/soc/rules/?page=2'), 'https://soc.example/portal', 100, 2, 10)).toEqual(
      {
        next: 'https://soc.example/portal/api/v0/soc/rules/?page=3',
        previous: 'https://soc.example/portal/api/v0/soc/rules/?page=1',
        total_exact: true,
      },
    );
  });

  it('offer a next page past a total that counting stopped at', () => {
    const url = '/api/v0/soc/incs/?search=a';
    expect(offsetLinks(request(url), undefined, 10_000, 40, 9_960)).toMatchObject({
      next: null,
      total_exact: true,
    });
    expect(offsetLinks(request(url), undefined, 10_000, 40, 9_960, false)).toEqual({
      next: '/api/v0/soc/incs/?search=a&limit=40&offset=10000',
      previous: '/api/v0/soc/incs/?search=a&limit=40&offset=9920',
      total_exact: false,
    });
  });

  it('never take a host from a path that starts with two slashes', () => {
    const withUrl = pageLinks(
      request('//evil.example.net/api/v0/soc/rules/'),
      'https://soc.example',
      100,
      1,
      10,
    );
    expect(new URL(withUrl.next!).host).toBe('soc.example');
    const relative = pageLinks(request('//evil.example.net/api/v0/soc/rules/'), undefined, 100, 1, 10);
    expect(relative.next).toBe('/evil.example.net/api/v0/soc/rules/?page=2');
  });
});
