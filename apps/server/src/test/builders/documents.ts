import { randomUUID } from 'node:crypto';
import { documents } from '../../db/schema/index.ts';
import type { TestContext } from '../harness.ts';
import { insertRow, tag } from './row.ts';

/** An article of the documentation hub (provider-wide, no tenant, no versions), Russian by default. */
export async function buildDocument(
  ctx: TestContext,
  fields: Partial<typeof documents.$inferInsert> = {},
): Promise<{ id: number; title: string }> {
  return insertRow(
    ctx,
    documents,
    {
      kind: 'article',
      document: randomUUID(),
      language: 'ru',
      title: `Test article ${tag()}`,
      ...fields,
    },
    { id: documents.id, title: documents.title },
  );
}
