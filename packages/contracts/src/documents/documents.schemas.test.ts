import { describe, expect, it } from 'vitest';
import {
  DocumentCommentCreateSchema,
  DocumentCreateSchema,
  DocumentListQuerySchema,
} from './documents.schemas.ts';

describe('document list query', () => {
  it('reads lists, dates and defaults, and rejects unknown parameters', () => {
    const q = DocumentListQuerySchema.parse({
      tags__in: 'vpn, mail\\,box',
      created__gte: '2026-01-01',
      updated__lte: '2026-01-31T23:59:59.999Z',
      search: '  host ',
    });
    expect(q.tags__in).toEqual(['vpn', 'mail,box']);
    expect(q.created__gte?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(q.updated__lte?.toISOString()).toBe('2026-01-31T23:59:59.999Z');
    expect(q.search).toBe('host');
    // a bare date as an upper bound covers that whole day
    expect(DocumentListQuerySchema.parse({ created__lte: '2026-01-31' }).created__lte?.toISOString()).toBe(
      '2026-01-31T23:59:59.999Z',
    );
    expect(q.page).toBe(1);
    expect(q.page_size).toBe(20);
    expect(DocumentListQuerySchema.safeParse({ colour: 'red' }).success).toBe(false);
    expect(DocumentListQuerySchema.safeParse({ created__gte: '31.01.2026' }).success).toBe(false);
    expect(DocumentListQuerySchema.safeParse({ ordering: 'author' }).success).toBe(false);
  });
});

describe('document payloads', () => {
  it('trims titles, removes duplicate tags and requires a comment text', () => {
    const doc = DocumentCreateSchema.parse({ title: ' A ', language: 'en', tags: ['x', 'x', 'y'] });
    expect(doc).toMatchObject({ title: 'A', tags: ['x', 'y'], sensors: [], description: '', comment: '' });
    expect(DocumentCreateSchema.safeParse({ title: 'A', language: 'de' }).success).toBe(false);
    expect(DocumentCommentCreateSchema.safeParse({ text: '  ' }).success).toBe(false);
    expect(DocumentCommentCreateSchema.parse({ text: ' ok ' }).text).toBe('ok');
  });
});
