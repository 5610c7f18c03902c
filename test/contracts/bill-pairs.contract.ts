/**
 * The store contract of bills in pairs (bill-pairs.ts, migrations 100 and 110), run on every
 * store: the bills of a trading workload, some stored with their fill, some as pair rows and
 * some as rows of their own, read back through every filter, bound and page size exactly as
 * the engine posted them, as if each bill were a row of its own; and the fills, in `fills` and
 * beside their bills, read back as one list.
 */
import assert from 'node:assert/strict';
import type { BillPosted } from '../../src/domain/events.ts';
import type { BillQuery, BillRow } from '../../src/ports/store.ts';
import { billsPagedBack, dumpTables, type ContractTest, type StoreHarness } from './store.contract.ts';
import { fillsAheadOfTheirBills, tradingWorkload } from './store-workload.ts';

/** What the query asks of `bills` (every bill of the workload), computed without the store. */
function expected(bills: readonly BillRow[], query: BillQuery): BillRow[] {
  const ascending = Boolean(query.idGreaterThan);
  return bills
    .filter(
      (bill) =>
        bill.uid === query.uid &&
        query.wallets.includes(bill.wallet) &&
        (!query.coin || bill.coin === query.coin) &&
        (!query.businessTypes || query.businessTypes.includes(bill.businessType)) &&
        (!query.idLessThan || bill.billId < query.idLessThan) &&
        (!query.idGreaterThan || bill.billId > query.idGreaterThan) &&
        (!query.billId || bill.billId === query.billId),
    )
    .sort((a, b) => (ascending === a.billId < b.billId ? -1 : 1))
    .slice(0, query.limit);
}

function billRow(event: BillPosted): BillRow {
  const { billId, uid, wallet, coin, symbol, amount, fee, balanceAfter, businessType, category, timeMs } =
    event;
  return { billId, uid, wallet, coin, symbol, amount, fee, balanceAfter, businessType, category, timeMs };
}

export function billPairsContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `bills when a trade posts them in pairs read as one row per bill would, under every filter, bound and page (${kind})`,
      options: { timeout: 60_000 },
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine, buyer, seller } = tradingWorkload();
        // Two of the four pairs as a store before version 110 wrote them (a pair row, the fill
        // in `fills`), two beside their fills.
        await store.append(fillsAheadOfTheirBills(engine.entries, 2));
        const posted = engine.entries
          .flatMap((entry) => entry.events)
          .filter((event): event is BillPosted => event.type === 'BillPosted')
          .map(billRow);
        const tables = await dumpTables(store);
        // Every form is read: a fill side's two bills with its fill or as one pair row,
        // deposits and withdrawals as rows of their own.
        assert.equal(tables.fills_with_bills?.length, 2, 'two fills beside their pairs');
        assert.equal(tables.bill_pairs?.length, 2, 'two pairs alone');
        assert.equal(tables.fills?.length, 2, 'two fills alone');
        assert.ok((tables.bills?.length ?? 0) >= 3, 'deposits and the withdrawal alone');
        const ids = [...new Set(posted.map((bill) => bill.billId))].sort();
        const bounds = ['', ...ids, '0', '999999999999999999', 'x'];
        let checked = 0;
        for (const uid of [buyer, seller]) {
          for (const coin of [undefined, 'USDT', 'BTC']) {
            for (const businessTypes of [undefined, ['buy'], ['sell'], ['deposit', 'buy']]) {
              for (const limit of [1, 2, 100]) {
                const base: BillQuery = {
                  uid,
                  wallets: ['spot'],
                  limit,
                  ...(coin ? { coin } : {}),
                  ...(businessTypes ? { businessTypes } : {}),
                };
                const queries: BillQuery[] = [base];
                for (const bound of bounds) {
                  if (bound === '') continue;
                  queries.push({ ...base, idLessThan: bound }, { ...base, idGreaterThan: bound });
                  queries.push({ ...base, billId: bound });
                }
                for (const query of queries) {
                  assert.deepEqual(await store.bills(query), expected(posted, query), JSON.stringify(query));
                  checked += 1;
                }
              }
            }
          }
        }
        assert.ok(checked > 1000);
        // Paging backwards two at a time visits every bill once, a pair split across pages.
        const all = await store.bills({ uid: buyer, wallets: ['spot'], limit: 100 });
        assert.deepEqual(await billsPagedBack(store, { uid: buyer, wallets: ['spot'], limit: 3 }), all);
        // The fills of both tables, newest first, as the engine recorded them, by every filter.
        const fills = engine.entries
          .flatMap((entry) => entry.events)
          .flatMap((event) => (event.type === 'FillRecorded' ? [{ ...event.fill }] : []));
        for (const uid of [buyer, seller]) {
          const own = fills.filter((fill) => fill.uid === uid).sort((a, b) => (a.execId < b.execId ? 1 : -1));
          assert.equal(own.length, 2);
          assert.deepEqual(await store.fills({ uid, limit: 100 }), own);
          assert.deepEqual(await store.fills({ uid, limit: 1 }), own.slice(0, 1));
          const older = own[0]?.execId ?? '';
          assert.deepEqual(await store.fills({ uid, limit: 100, idLessThan: older }), own.slice(1));
          for (const { orderId } of own) {
            const ofOrder = own.filter((fill) => fill.orderId === orderId);
            assert.deepEqual(await store.fills({ uid, orderId, limit: 100 }), ofOrder);
          }
        }
      },
    },
  ];
}
