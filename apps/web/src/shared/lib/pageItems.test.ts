import { describe, expect, it } from 'vitest';
import { pageItems } from './pageItems.ts';

describe('pageItems', () => {
  it('keeps the order of the pages and drops an item a shifted page brings again', () => {
    const pages = [{ results: [{ id: 3 }, { id: 2 }] }, { results: [{ id: 2 }, { id: 1 }] }];
    expect(pageItems(pages, (item) => item.id).map((item) => item.id)).toEqual([3, 2, 1]);
  });

  it('is empty before the first page', () => {
    expect(pageItems<{ id: number }>(undefined, (item) => item.id)).toEqual([]);
  });
});
