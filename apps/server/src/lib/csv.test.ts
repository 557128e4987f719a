import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client.ts';
import type { TestContext } from '../test/harness.ts';
import { createTestContext } from '../test/harness.ts';
import { csvCell, csvLine, csvSafe } from './csv.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext({ incidents: 0 });
});
afterAll(() => ctx.close());

/** Cells built from the characters that matter (separators, formula starts, quotes) and letters. */
const tricky = fc
  .array(fc.constantFrom(',', ';', '\t', '\r', '\n', '=', '+', '-', '@', '"', "'", ' ', 'a', 'Я', '1'), {
    maxLength: 12,
  })
  .map((chars) => chars.join(''));

/** Whether a part of a cell, split on a separator of any locale, would start a formula. */
const startsFormula = (cell: string) => cell.split(/[,;\t\r\n]/).some((part) => /^[=+\-@]/.test(part));

describe('CSV cells (lib/csv.ts)', () => {
  it('quotes a separator of any locale and neutralises a formula after it', () => {
    expect(csvCell('atk2;=1+1;')).toBe(`"atk2;'=1+1;"`);
    expect(csvCell('a,@SUM(A1)')).toBe(`"a,'@SUM(A1)"`);
    expect(csvCell('a\t-2')).toBe(`"a\t'-2"`);
    expect(csvCell('x\n+1')).toBe(`"x\n'+1"`);
    for (const p of ['=', '+', '-', '@']) expect(csvCell(`${p}1`)).toBe(`'${p}1`);
    expect(csvCell('\t1')).toBe(`"'\t1"`);
    expect(csvCell('\r1')).toBe(`"'\r1"`);
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('plain 1-2')).toBe('plain 1-2');
    expect(csvCell(null)).toBe('');
    expect(csvCell(7)).toBe('7');
    expect(csvLine(['a', 'b;c'])).toBe('a,"b;c"\n');
  });

  it('reads back as the neutralised text, and no part split on any separator starts a formula', () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 4 }), (cells) => {
        const line = csvLine(cells);
        const [record]: string[][] = parse(line);
        expect(record).toEqual(cells.map(csvSafe));
        for (const cell of cells) expect(startsFormula(csvSafe(cell))).toBe(false);
        // a reader that ignores quotes and splits on `;` sees no formula either
        for (const part of line.split(/[;\t]/)) expect(/^[=+\-@]/.test(part)).toBe(false);
      }),
    );
  });

  it('writes the same cells as the database functions csv_safe and csv_cell', async () => {
    const samples = fc.sample(tricky, 300);
    samples.push('', 'atk2;=1+1;', '\t\t=', '=\t=');
    const rows = await queryRows<{ v: string; safe: string | null; cell: string }>(
      ctx.database.db,
      sql`SELECT v, csv_safe(v) AS safe, csv_cell(v) AS cell FROM json_array_elements_text(${JSON.stringify(samples)}::json) AS v`,
    );
    expect(rows).toHaveLength(samples.length);
    for (const { v, safe, cell } of rows) {
      expect({ v, safe: safe ?? '', cell }).toEqual({ v, safe: csvSafe(v), cell: csvCell(v) });
    }
  });
});
