/**
 * The store contract of bills in pairs (bill-pairs.ts, migration 100), run on every store: the
 * bills of a trading workload, some stored as pair rows and some as rows of their own, read
 * back through every filter, bound and page size exactly as the engine posted them, as if each
 * bill were a row of its own.
 */
import assert from 'node:assert/strict';
import type { BillPosted } from '../../src/domain/events.ts';
import type { BillQuery, BillRow } from '../../src/ports/store.ts';
import { billsPagedBack, dumpTables, type ContractTest, type StoreHarness } from './store.contract.ts';
import { tradingWorkload } from './store-workload.ts';

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
        await store.append(engine.entries);
        const posted = engine.entries
          .flatMap((entry) => entry.events)
          .filter((event): event is BillPosted => event.type === 'BillPosted')
          .map(billRow);
        const tables = await dumpTables(store);
        // Both forms are read: each trade's two bills as one pair row, deposits and
        // withdrawals as rows of their own.
        assert.equal(tables.bill_pairs?.length, 4, 'two fills a side, each side a pair');
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
      },
    },
  ];
}
