/**
 * The items of an infinite list's pages loaded so far, in order, without the duplicates that
 * shifting pages bring (an item created or moved while scrolling appears on two pages).
 */
export function pageItems<T>(
  pages: readonly { results: readonly T[] }[] | undefined,
  idOf: (item: T) => number | string,
): T[] {
  const seen = new Set<number | string>();
  const items: T[] = [];
  for (const page of pages ?? []) {
    for (const item of page.results) {
      const id = idOf(item);
      if (seen.has(id)) continue;
      seen.add(id);
      items.push(item);
    }
  }
  return items;
}
