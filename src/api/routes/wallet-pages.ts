/**
 * A page of one margin wallet's rows from a store read that cannot filter by wallet: margin
 * orders and fills keep their wallet (crossed or a symbol's isolated one) in the row's body,
 * not in a column, so the wallet is filtered here. So that a page is not cut short (or empty)
 * while older matches exist, pages are read newest first, each below the last id seen, until
 * `limit` rows are kept, the store has no more, or MAX_PAGES pages were read (a bound on one
 * request's work: past it the page may hold fewer rows than asked, and `minId` pages on).
 */
export const MAX_PAGES = 10;

export async function walletPage<T>(
  read: (idLessThan: string | undefined) => Promise<T[]>,
  keep: (rows: T[]) => Promise<T[]> | T[],
  idOf: (row: T) => string,
  limit: number,
  idLessThan: string | undefined,
): Promise<T[]> {
  const kept: T[] = [];
  let below = idLessThan;
  for (let pages = 0; pages < MAX_PAGES && kept.length < limit; pages += 1) {
    const rows = await read(below);
    kept.push(...(await keep(rows)));
    const last = rows[rows.length - 1];
    if (rows.length < limit || last === undefined) break;
    below = idOf(last);
  }
  return kept.slice(0, limit);
}
