import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { incidents } from '../db/schema/index.ts';
import { effectiveSystems } from './scope.ts';
import { inScope } from '../db/fragments.ts';

const dialect = new PgDialect();
const text = (condition: ReturnType<typeof inScope>) => {
  if (!condition) return undefined;
  const { sql: query, params } = dialect.sqlToQuery(sql`${condition}`);
  return { sql: query, params };
};

describe('inScope', () => {
  it('sets no condition for every system', () => {
    expect(inScope(incidents.systemId, null)).toBeUndefined();
  });

  it('matches nothing for an empty scope, never everything', () => {
    expect(text(inScope(incidents.systemId, []))).toEqual({ sql: 'FALSE', params: [] });
  });

  it('limits a column or an expression to the scope', () => {
    expect(text(inScope(sql`i.system_id`, [5]))).toEqual({ sql: 'i.system_id IN ($1)', params: [5] });
    expect(text(inScope(incidents.systemId, [3, 7]))).toEqual({
      sql: '"incidents"."system_id" IN ($1, $2)',
      params: [3, 7],
    });
  });
});

describe('effectiveSystems', () => {
  it('narrows a scope by the filter, keeping only allowed systems', () => {
    expect(effectiveSystems({ system__in: [1, 2, 9] }, [2, 3])).toEqual([2]);
    expect(effectiveSystems({ system__in: [1] }, null)).toEqual([1]);
    expect(effectiveSystems({}, [4])).toEqual([4]);
    expect(effectiveSystems({}, null)).toBeNull();
  });
});
