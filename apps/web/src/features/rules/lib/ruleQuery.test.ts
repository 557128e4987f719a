import { mitreBand } from '@soc/contracts';
import { describe, expect, it } from 'vitest';
import { countActiveFilters, sanitizeRuleParams, truncate, withoutFilters } from './ruleQuery.ts';

describe('rule list parameters', () => {
  it('drops unknown keys and invalid values, keeps valid list items', () => {
    const params = sanitizeRuleParams(
      new URLSearchParams('severity__in=High,Huge&colour=red&ordering=created&mitre_technique__in=T1059,x'),
    );
    expect(params.toString()).toBe('mitre_technique__in=T1059&ordering=created&severity__in=High');
  });

  it('counts filters (a date range once) and resets them, keeping search and sort', () => {
    const params = new URLSearchParams(
      'search=dns&ordering=created&created__gte=2026-01-01&created__lte=2026-02-01&is_requested=true',
    );
    expect(countActiveFilters(params)).toBe(2);
    expect(withoutFilters(params).toString()).toBe('search=dns&ordering=created');
  });

  it('truncates with an ellipsis only past the limit', () => {
    expect(truncate('Credential theft', 19)).toBe('Credential theft');
    expect(truncate('Anomalous behaviour of privileged accounts', 19)).toBe('Anomalous behaviour…');
  });

  it('colours techniques by rule count in the bands of product §B9', () => {
    expect([0, 1, 13, 14, 15, 16, 17, 18, 40].map(mitreBand)).toEqual([
      'none',
      'low',
      'low',
      'medium',
      'medium',
      'high',
      'high',
      'highest',
      'highest',
    ]);
  });
});
