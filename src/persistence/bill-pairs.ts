/**
 * Bills in pairs: the `bill_pairs` table (schema.ts, version 100), written and read.
 *
 * A fill side posts two bills one after the other (the coin paid from its hold, the coin
 * received less its fee), to one wallet, with ids n and n + 1. Stored as two rows of `bills`
 * they cost the store about a quarter of all the CPU of a crossing order (docs/performance.md,
 * 2026-11-26e); stored as one row of `bill_pairs`, half as many rows and key entries. Any two
 * bills an entry's events post back to back are paired when they share what a pair's row holds
 * once (uid, wallet, category, symbol, business type, time) and the second's id is the
 * first's plus one; every other bill is a row of `bills` as before, and so is every bill
 * written before version 100.
 *
 * Reading: the bills reads query both tables with the same filters and merge the two pages by
 * id. A pair row's two bills are adjacent in id order (nothing has an id between n and n + 1),
 * so ordering the pairs by their first id orders their bills too; what a pair's two bills do
 * not share (coin, id) is filtered once the row is split, and one row more than the page is read
 * because the row at a bound may hold none of the bills the query admits.
 */
import type { BillPosted, FillView } from '../domain/events.ts';
import type { BillQuery, BillRow } from '../ports/store.ts';
import type { Value } from './projection.ts';
import { billCauseFilters, Where, type Row, type Sql } from './queries.ts';

const ZERO = 48;
const EIGHT = 56;
const NINE = 57;

/**
 * Whether id text `next` is `id` plus one, read digit by digit from the end (no allocation: it
 * runs for every bill projected): the trailing 9s of `id` are 0s in `next`, the digit before
 * them one more, every digit before that the same.
 */
export function isNextId(id: string, next: string): boolean {
  if (next.length !== id.length) return false;
  let at = id.length - 1;
  while (at >= 0 && id.charCodeAt(at) === NINE) {
    if (next.charCodeAt(at) !== ZERO) return false;
    at -= 1;
  }
  const digit = id.charCodeAt(at);
  if (at < 0 || digit < ZERO || digit > EIGHT || next.charCodeAt(at) !== digit + 1) return false;
  for (let before = 0; before < at; before += 1) {
    if (id.charCodeAt(before) !== next.charCodeAt(before)) return false;
  }
  return true;
}

/** `id` plus one in the same number of digits (what isNextId accepts as its successor). */
function nextIdText(id: string): string {
  let at = id.length - 1;
  while (at >= 0 && id.charCodeAt(at) === NINE) at -= 1;
  return id.slice(0, at) + String.fromCharCode(id.charCodeAt(at) + 1) + '0'.repeat(id.length - 1 - at);
}

/** Whether `second`, posted right after `first`, goes into one pair row with it. */
export function pairsWith(first: BillPosted, second: BillPosted): boolean {
  return (
    second.uid === first.uid &&
    second.wallet === first.wallet &&
    second.businessType === first.businessType &&
    second.symbol === first.symbol &&
    second.category === first.category &&
    second.timeMs === first.timeMs &&
    isNextId(first.billId, second.billId)
  );
}

/** The `bill_pairs` row of two bills that pair, in the table's column order. */
export function billPairValues(first: BillPosted, second: BillPosted): Value[] {
  // bill_id, uid, wallet, category, symbol, business_type, time_ms, coin, coin_next, amounts
  return [
    first.billId,
    first.uid,
    first.wallet,
    first.category,
    first.symbol,
    first.businessType,
    first.timeMs,
    first.coin,
    second.coin,
    pairAmounts(first, second),
  ];
}

/** The `amounts` column of a pair: amount, fee and balance of the first bill, then of the second. */
function pairAmounts(first: BillPosted, second: BillPosted): string {
  // Joined rather than a template: one flat text, which the hand-over to the writer copies
  // as it is (a template's text is a tree of parts that has to be flattened first).
  return [first.amount, first.fee, first.balanceAfter, second.amount, second.fee, second.balanceAfter].join(
    ',',
  );
}

/**
 * Whether a fill posted right after a pair of bills can hold them in its row of
 * `fills_with_bills`: the row's uid, category, symbol and time are read for both.
 */
export function fillSharesPair(fill: FillView, first: BillPosted): boolean {
  return (
    fill.uid === first.uid &&
    fill.category === first.category &&
    fill.symbol === first.symbol &&
    fill.timeMs === first.timeMs
  );
}

/**
 * The `fills_with_bills` row of a fill and its pair: the fill's `fills` values, then what the
 * pair does not share with it (bill_id, wallet, business_type, coin, coin_next, amounts),
 * appended to `fillValues` (no second array per fill).
 */
export function fillWithBillsValues(fillValues: Value[], first: BillPosted, second: BillPosted): Value[] {
  fillValues.push(
    first.billId,
    first.wallet,
    first.businessType,
    first.coin,
    second.coin,
    pairAmounts(first, second),
  );
  return fillValues;
}

/** `id` minus one in as many digits, or null when no pair can hold `id` second (not digits, or all 0s). */
function previousIdText(id: string): string | null {
  if (!/^\d{1,64}$/.test(id)) return null;
  let at = id.length - 1;
  while (at >= 0 && id.charCodeAt(at) === ZERO) at -= 1;
  if (at < 0) return null;
  return id.slice(0, at) + String.fromCharCode(id.charCodeAt(at) - 1) + '9'.repeat(id.length - 1 - at);
}

/** The tables that hold bills in pairs, with the columns a pair is read from (billsOfPair). */
export type PairTable = 'bill_pairs' | 'fills_with_bills';
const PAIR_COLUMNS =
  'bill_id, uid, wallet, category, symbol, business_type, time_ms, coin, coin_next, amounts';

/**
 * The pair rows of `table` that may hold bills `query` admits, in id order, one more than its
 * page; null when no pair can hold the bill a `billId` query asks for (not digits, or all zeros).
 */
export function billPairsSql(query: BillQuery, table: PairTable = 'bill_pairs'): Sql | null {
  const where = new Where().add('uid = ?', query.uid);
  billCauseFilters(where.addIn('wallet', query.wallets.length > 0 ? query.wallets : ['']), query)
    .addOptional('bill_id < ?', query.idLessThan)
    // The second bill (first + 1) is above the bound when the first is at it or above.
    .addOptional('bill_id >= ?', query.idGreaterThan);
  if (query.coin !== undefined && query.coin !== '')
    where.add('(coin = ? OR coin_next = ?)', query.coin, query.coin);
  if (query.billId !== undefined && query.billId !== '') {
    const previous = previousIdText(query.billId);
    if (previous === null) return null;
    where.add('bill_id IN (?, ?)', query.billId, previous);
  }
  const order = query.idGreaterThan ? 'ASC' : 'DESC';
  return {
    text: `SELECT ${PAIR_COLUMNS} FROM ${table} WHERE ${where.text} ORDER BY bill_id ${order} LIMIT ?`,
    params: [...where.params, query.limit + 1],
  };
}

/** The two bills of a pair row, first then second. */
export function billsOfPair(row: Row): [BillRow, BillRow] {
  const [amount, fee, balance, nextAmount, nextFee, nextBalance] = String(row.amounts).split(',');
  const billId = String(row.bill_id);
  const shared = {
    uid: String(row.uid),
    wallet: String(row.wallet),
    symbol: String(row.symbol),
    businessType: String(row.business_type),
    category: String(row.category),
    timeMs: Number(row.time_ms),
  };
  return [
    {
      ...shared,
      billId,
      coin: String(row.coin),
      amount: BigInt(amount ?? ''),
      fee: BigInt(fee ?? ''),
      balanceAfter: BigInt(balance ?? ''),
    },
    {
      ...shared,
      billId: nextIdText(billId),
      coin: String(row.coin_next),
      amount: BigInt(nextAmount ?? ''),
      fee: BigInt(nextFee ?? ''),
      balanceAfter: BigInt(nextBalance ?? ''),
    },
  ];
}

/** Whether `bill`, split from a pair row the SQL admitted, is one the query asks for. */
function admits(query: BillQuery, bill: BillRow): boolean {
  if (query.coin && bill.coin !== query.coin) return false;
  if (query.idLessThan && !(bill.billId < query.idLessThan)) return false;
  if (query.idGreaterThan && !(bill.billId > query.idGreaterThan)) return false;
  if (query.billId && bill.billId !== query.billId) return false;
  return true;
}

/**
 * One page of `query`: `single` (rows of `bills`, in the page's order) and the bills of
 * `pairRows` (rows of each table of pairs, each list in the page's order) merged by id,
 * `query.limit` at most.
 */
export function mergedBills(
  query: BillQuery,
  single: readonly BillRow[],
  ...pairRows: (readonly Row[])[]
): BillRow[] {
  const ascending = Boolean(query.idGreaterThan);
  const before = (a: BillRow, b: BillRow) => (ascending ? a.billId < b.billId : a.billId > b.billId);
  const paired: BillRow[] = [];
  for (const rows of pairRows) {
    for (const row of rows) {
      const [first, second] = billsOfPair(row);
      for (const bill of ascending ? [first, second] : [second, first])
        if (admits(query, bill)) paired.push(bill);
    }
  }
  if (paired.length === 0) return single.slice(0, query.limit);
  // Each table's bills are in order already; several tables' lists are put in one order.
  if (pairRows.length > 1) paired.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  const page: BillRow[] = [];
  let s = 0;
  let p = 0;
  while (page.length < query.limit && (s < single.length || p < paired.length)) {
    const fromSingle = single[s];
    const fromPairs = paired[p];
    if (fromPairs === undefined || (fromSingle !== undefined && before(fromSingle, fromPairs))) {
      page.push(fromSingle as BillRow);
      s += 1;
    } else {
      page.push(fromPairs);
      p += 1;
    }
  }
  return page;
}
