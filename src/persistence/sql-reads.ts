/**
 * The read methods of the Store port, once for every SQL store: each runs a query of
 * queries.ts through the store's `all` and decodes the rows. A new read is added here (with
 * its SQL in queries.ts), and SQLite and PostgreSQL both have it; a Store method missing here
 * fails the typecheck of both stores.
 */
import type { Store } from '../ports/store.ts';
import {
  billOf,
  billsSql,
  candleOf,
  candlesSql,
  fillOf,
  fillsSql,
  fundingRateOf,
  fundingRatesSql,
  fundingOf,
  fundingSql,
  orderOf,
  orderSql,
  ordersSql,
  agentKycSql,
  brokerFundingOf,
  brokerFundingSql,
  commissionOf,
  commissionsSql,
  kycOf,
  transferOf,
  transfersSql,
  positionHistoryOf,
  positionHistorySql,
  positionSpanOf,
  positionSpansSql,
  planOf,
  planSql,
  plansSql,
  tradeOf,
  tradesSql,
  type Sql,
} from './queries.ts';
import { convertOf, convertsSql, walletRecordOf, walletRecordsSql } from './wallet-queries.ts';
import { marginLiquidationOf, marginLiquidationsSql } from './margin-rows.ts';
import { billPairsSql, mergedBills } from './bill-pairs.ts';

/** What a store's own code provides; everything else of the port is a read defined here. */
type StoreCore =
  'latestSnapshot' | 'journalAfter' | 'lastSeq' | 'append' | 'saveSnapshot' | 'replaceAll' | 'close';

export type ReadMethods = Omit<Store, StoreCore>;

export type Row = Record<string, unknown>;

export function sqlReads(all: (sql: Sql) => Promise<Row[]>): ReadMethods {
  return {
    async bills(query) {
      // Bills of their own, bills in pairs and pairs with their fills (bill-pairs.ts), asked together.
      const pairs = billPairsSql(query, 'bill_pairs');
      const fillPairs = billPairsSql(query, 'fills_with_bills');
      const [single, pairRows, fillPairRows] = await Promise.all([
        all(billsSql(query)),
        pairs ? all(pairs) : [],
        fillPairs ? all(fillPairs) : [],
      ]);
      return mergedBills(query, single.map(billOf), pairRows, fillPairRows);
    },
    async fundingRecords(uid, limit) {
      return (await all(fundingSql(uid, limit))).map(fundingOf);
    },
    async order(uid, reference) {
      const [row] = await all(orderSql(uid, reference));
      return row ? orderOf(row) : null;
    },
    async orders(query) {
      return (await all(ordersSql(query))).map(orderOf);
    },
    async fills(query) {
      return (await all(fillsSql(query))).map(fillOf);
    },
    async transfers(query) {
      return (await all(transfersSql(query))).map(transferOf);
    },
    async brokerFunding(query) {
      return (await all(brokerFundingSql(query))).map(brokerFundingOf);
    },
    async agentKyc(query) {
      return (await all(agentKycSql(query))).map(kycOf);
    },
    async commissions(query) {
      return (await all(commissionsSql(query))).map(commissionOf);
    },
    async trades(query) {
      return (await all(tradesSql(query))).map(tradeOf);
    },
    async fundingRates(query) {
      return (await all(fundingRatesSql(query))).map(fundingRateOf);
    },
    async positionSpans(query) {
      return (await all(positionSpansSql(query))).map(positionSpanOf);
    },
    async positionHistory(query) {
      return (await all(positionHistorySql(query))).map(positionHistoryOf);
    },
    async plans(query) {
      return (await all(plansSql(query))).map(planOf);
    },
    async plan(uid, reference) {
      const [row] = await all(planSql(uid, reference));
      return row ? planOf(row) : null;
    },
    async walletRecords(query) {
      return (await all(walletRecordsSql(query))).map(walletRecordOf);
    },
    async converts(query) {
      return (await all(convertsSql(query))).map(convertOf);
    },
    async marginLiquidations(query) {
      return (await all(marginLiquidationsSql(query))).map(marginLiquidationOf);
    },
    async candles(query) {
      return (await all(candlesSql(query))).map(candleOf);
    },
  };
}
