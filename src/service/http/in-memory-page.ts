/**
 * Sorting and paging of a small, already-filtered list in memory, for the searches whose resources are
 * few per account (collections, shares): sorts apply in order, ties keep the id order so pages are
 * stable, and `pageSize: 0` answers the count alone, as asset searches do. Keys compare by code unit
 * ignoring ASCII case (as the asset search's NOCASE), so ISO dates order by time and "\uffff" sorts last.
 */
export interface SortSpec<F extends string> {
  field: F;
  order?: 'ASC' | 'DESC' | undefined;
}

export function sortAndPage<T extends { id: string }, F extends string>(
  items: readonly T[],
  sorts: readonly SortSpec<F>[],
  keyOf: (item: T, field: F) => string,
  from = 0,
  pageSize = 100,
): { page: T[]; total: number } {
  const sorted = [...items].sort((a, b) => {
    for (const sort of sorts) {
      const compared = compareText(keyOf(a, sort.field), keyOf(b, sort.field));
      if (compared !== 0) return sort.order === 'DESC' ? -compared : compared;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return { page: sorted.slice(from, from + pageSize), total: sorted.length };
}

function compareText(a: string, b: string): number {
  const [left, right] = [a.toLowerCase(), b.toLowerCase()];
  return left < right ? -1 : left > right ? 1 : 0;
}
