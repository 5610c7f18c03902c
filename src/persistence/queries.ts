/**
 * The read queries of every store, as SQL with `?` placeholders (PostgreSQL numbers them) and
 * the decoders of their rows. Each query's WHERE and ORDER BY match an index in schema.ts.
 */
import type {
  BillQuery,
  BillRow,
  CandleQuery,
  CandleRow,
  FillQuery,
  FundingRow,
  OrderQuery,
  TradeQuery,
  TradeRow,
} from '../ports/store.ts';
import type { PositionHistoryQuery, PositionHistoryRow } from '../ports/store.ts';
import type { FundingRateQuery, FundingRateRow, PositionSpanQuery, PositionSpanRow } from '../ports/store.ts';
import type { PlanQuery } from '../ports/store.ts';
import type { PlanView } from '../domain/plan.ts';
import type {
  BrokerFundingQuery,
  BrokerFundingRow,
  CommissionQuery,
  CommissionRow,
  KycQuery,
  KycRow,
  TransferQuery,
  TransferRow,
} from '../ports/store.ts';
import type { Value } from './projection.ts';
import { ORDERS_BY_GIVEN_CLIENT_OID, UNIFIED_BILLS_BY_CATEGORY } from './schema.ts';

export interface Sql {
  text: string;
  params: Value[];
}

export type Row = Record<string, unknown>;

export class Where {
  readonly clauses: string[] = [];
  readonly params: Value[] = [];

  add(clause: string, ...params: Value[]): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  addIn(column: string, values: readonly Value[] | undefined, negate = false): this {
    if (!values || values.length === 0) return this;
    return this.add(`${column} ${negate ? 'NOT IN' : 'IN'} (${values.map(() => '?').join(', ')})`, ...values);
  }

  addOptional(clause: string, value: Value | undefined): this {
    return value === undefined || value === '' ? this : this.add(clause, value);
  }

  get text(): string {
    return this.clauses.join(' AND ');
  }
}

/** A page of `table`'s rows matching `where`, newest record first (the venue's idLessThan paging). */
export function newestRecordsSql(table: string, where: Where, limit: number): Sql {
  return {
    text: `SELECT * FROM ${table} WHERE ${where.text} ORDER BY record_id DESC LIMIT ?`,
    params: [...where.params, limit],
  };
}

/** A bills query's filters on what a bill's cause sets: category, business type, time. */
export function billCauseFilters(where: Where, query: BillQuery): Where {
  return where
    .addIn('category', query.categories)
    .addIn('business_type', query.businessTypes)
    .addIn('business_type', query.excludeBusinessTypes, true)
    .addOptional('time_ms >= ?', query.startTimeMs)
    .addOptional('time_ms <= ?', query.endTimeMs);
}

export function billsSql(query: BillQuery): Sql {
  const where = new Where().add('uid = ?', query.uid);
  // The unified wallet's bills by category have an index of their own, which a query can use
  // only when it names that wallet in the index's own words (schema.ts PartialIndex).
  if (query.wallets.length === 1 && query.wallets[0] === 'unified')
    where.add(UNIFIED_BILLS_BY_CATEGORY.where);
  else where.addIn('wallet', query.wallets.length > 0 ? query.wallets : ['']);
  billCauseFilters(where, query)
    .addOptional('coin = ?', query.coin)
    .addOptional('bill_id < ?', query.idLessThan)
    .addOptional('bill_id > ?', query.idGreaterThan)
    .addOptional('bill_id = ?', query.billId);
  const order = query.idGreaterThan ? 'ASC' : 'DESC';
  return {
    text: `SELECT * FROM bills WHERE ${where.text} ORDER BY bill_id ${order} LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function billOf(row: Row): BillRow {
  return {
    billId: String(row.bill_id),
    uid: String(row.uid),
    wallet: String(row.wallet),
    coin: String(row.coin),
    symbol: String(row.symbol),
    amount: BigInt(String(row.amount)),
    fee: BigInt(String(row.fee)),
    balanceAfter: BigInt(String(row.balance)),
    businessType: String(row.business_type),
    category: String(row.category ?? ''),
    timeMs: Number(row.time_ms),
  };
}

export function fundingSql(uid: string, limit: number): Sql {
  return {
    text: 'SELECT * FROM funding_records WHERE uid = ? ORDER BY record_id DESC LIMIT ?',
    params: [uid, limit],
  };
}

export function fundingOf(row: Row): FundingRow {
  return {
    recordId: String(row.record_id),
    txId: String(row.tx_id),
    uid: String(row.uid),
    coin: String(row.coin),
    amount: BigInt(String(row.amount)),
    direction: row.direction as FundingRow['direction'],
    subType: String(row.sub_type),
    status: String(row.status),
    timeMs: Number(row.time_ms),
  };
}

// An order's and a fill's view are their row's columns and body together (view-bodies.ts).
const ORDER_COLUMNS = 'order_id, uid, client_oid, category, symbol, status, created_ms, updated_ms, body';
const FILL_COLUMNS = 'exec_id, uid, order_id, category, symbol, time_ms, body';

export function orderSql(uid: string, reference: { orderId?: string; clientOid?: string }): Sql {
  if (reference.orderId) {
    return {
      text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE uid = ? AND order_id = ?`,
      params: [uid, reference.orderId],
    };
  }
  const where = clientOidFilter(new Where().add('uid = ?', uid), uid, reference.clientOid ?? '');
  return {
    text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where.text} ORDER BY order_id DESC LIMIT 1`,
    params: where.params,
  };
}

/**
 * The orders of `uid` with clientOid `clientOid`: those whose clientOid was given, from the
 * index of given clientOids (schema.ts ORDERS_BY_GIVEN_CLIENT_OID, whose condition is repeated
 * word for word so that both planners use it), and the order whose id it is, which took its
 * id as clientOid if none was given.
 */
function clientOidFilter(where: Where, uid: string, clientOid: string): Where {
  return where.add(
    'client_oid = ? AND order_id IN (SELECT order_id FROM orders WHERE uid = ? AND client_oid = ? AND ' +
      `${ORDERS_BY_GIVEN_CLIENT_OID.where} UNION ALL SELECT ?)`,
    clientOid,
    uid,
    clientOid,
    clientOid,
  );
}

function accountFilters(query: OrderQuery | FillQuery, idColumn: string, timeColumn: string): Where {
  return new Where()
    .add('uid = ?', query.uid)
    .addIn('category', query.categories)
    .addOptional('symbol = ?', query.symbol)
    .addOptional(`${timeColumn} >= ?`, query.startTimeMs)
    .addOptional(`${timeColumn} <= ?`, query.endTimeMs)
    .addOptional(`${idColumn} < ?`, query.idLessThan);
}

export function ordersSql(query: OrderQuery): Sql {
  const where = accountFilters(query, 'order_id', 'created_ms');
  if (query.closedOnly) where.addIn('status', ['filled', 'cancelled']);
  where.addOptional('order_id = ?', query.orderId);
  if (query.clientOid) clientOidFilter(where, query.uid, query.clientOid);
  return {
    text: `SELECT ${ORDER_COLUMNS} FROM orders WHERE ${where.text} ORDER BY order_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function fillsSql(query: FillQuery): Sql {
  const where = accountFilters(query, 'exec_id', 'time_ms').addOptional('order_id = ?', query.orderId);
  // Fills of their own and fills with their bills (migration 110): a page of each, in the
  // order of its own key, then the page of both. Each arm has its own ORDER BY and LIMIT so that
  // PostgreSQL reads it by its index and stops (a merge append); with the order on the union
  // alone it read every fill of the account below the cursor and sorted them (docs/persistence.md).
  const arm = (table: string) =>
    `SELECT * FROM (SELECT ${FILL_COLUMNS} FROM ${table} WHERE ${where.text} ORDER BY exec_id DESC LIMIT ?) AS ${table}_page`;
  return {
    text: `${arm('fills')} UNION ALL ${arm('fills_with_bills')} ORDER BY exec_id DESC LIMIT ?`,
    params: [...where.params, query.limit, ...where.params, query.limit, query.limit],
  };
}

export { orderOfRow as orderOf, fillOfRow as fillOf } from './view-bodies.ts';

// Transfers, broker records, agents (docs/subaccounts.md, docs/broker.md).

export function transfersSql(query: TransferQuery): Sql {
  const where = new Where();
  if (query.toUid !== undefined) where.add('to_uid = ?', query.toUid);
  else where.add('uid = ?', query.uid ?? '');
  where
    .add('kind = ?', query.kind)
    .addOptional('coin = ?', query.coin)
    .addOptional('from_type = ?', query.fromType)
    .addOptional('client_oid = ?', query.clientOid)
    .addOptional('time_ms >= ?', query.startTimeMs)
    .addOptional('time_ms <= ?', query.endTimeMs)
    .addOptional('transfer_id < ?', query.idLessThan);
  if (query.partyUid) where.add('(from_uid = ? OR to_uid = ?)', query.partyUid, query.partyUid);
  return {
    text: `SELECT * FROM transfers WHERE ${where.text} ORDER BY transfer_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function transferOf(row: Row): TransferRow {
  return {
    transferId: String(row.transfer_id),
    uid: String(row.uid),
    kind: row.kind === 'sub' ? 'sub' : 'wallet',
    fromUid: String(row.from_uid),
    toUid: String(row.to_uid),
    clientOid: String(row.client_oid),
    coin: String(row.coin),
    fromType: String(row.from_type),
    fromSymbol: String(row.from_symbol),
    toType: String(row.to_type),
    toSymbol: String(row.to_symbol),
    amount: BigInt(String(row.amount)),
    status: String(row.status),
    timeMs: Number(row.time_ms),
  };
}

export function brokerFundingSql(query: BrokerFundingQuery): Sql {
  const where = new Where()
    .add('parent_uid = ?', query.parentUid)
    .add('created_ms >= ?', query.startTimeMs)
    .add('created_ms <= ?', query.endTimeMs)
    .addOptional('direction = ?', query.direction)
    .addOptional('record_id < ?', query.idLessThan);
  return newestRecordsSql('broker_funding', where, query.limit);
}

export function brokerFundingOf(row: Row): BrokerFundingRow {
  return {
    recordId: String(row.record_id),
    parentUid: String(row.parent_uid),
    uid: String(row.uid),
    txId: String(row.tx_id),
    coin: String(row.coin),
    direction: row.direction === 'withdrawal' ? 'withdrawal' : 'deposit',
    subType: String(row.sub_type),
    amount: BigInt(String(row.amount)),
    status: String(row.status),
    createdTimeMs: Number(row.created_ms),
    updatedTimeMs: Number(row.updated_ms),
  };
}

export function agentKycSql(query: KycQuery): Sql {
  const where = new Where()
    .add('agent_uid = ?', query.agentUid)
    .add('time_ms >= ?', query.startTimeMs)
    .add('time_ms <= ?', query.endTimeMs)
    .addOptional('uid = ?', query.uid)
    .addOptional('uid < ?', query.idLessThan);
  return {
    text: `SELECT * FROM agent_kyc WHERE ${where.text} ORDER BY uid DESC LIMIT ? OFFSET ?`,
    params: [...where.params, query.limit, query.offset],
  };
}

export function kycOf(row: Row): KycRow {
  return {
    uid: String(row.uid),
    agentUid: String(row.agent_uid),
    result: String(row.result),
    timeMs: Number(row.time_ms),
  };
}

export function commissionsSql(query: CommissionQuery): Sql {
  const where = new Where()
    .add('agent_uid = ?', query.agentUid)
    .add('date_ms >= ?', query.fromDateMs)
    .add('date_ms <= ?', query.toDateMs)
    .addOptional('uid = ?', query.uid)
    .addOptional('coin = ?', query.coin)
    .addIn('symbol', query.symbols)
    .addOptional('record_id < ?', query.idLessThan);
  return newestRecordsSql('commissions', where, query.limit);
}

export function commissionOf(row: Row): CommissionRow {
  const money = (column: string) => BigInt(String(row[column]));
  return {
    recordId: String(row.record_id),
    agentUid: String(row.agent_uid),
    uid: String(row.uid),
    dateMs: Number(row.date_ms),
    coin: String(row.coin),
    symbol: String(row.symbol),
    category: String(row.category),
    dealAmount: money('deal_amount'),
    fee: money('fee'),
    feePaid: money('fee_paid'),
    rebateAmount: money('rebate_amount'),
    userRebateAmount: money('user_rebate_amount'),
    dayTotalRebateAmount: money('day_total_rebate'),
    totalRebateAmount: money('total_rebate'),
  };
}

// Market data (src/market): public trades and candles.

export function tradesSql(query: TradeQuery): Sql {
  const where = new Where()
    .add('category = ?', query.category)
    .addOptional('symbol = ?', query.symbol)
    .addOptional('time_ms >= ?', query.startTimeMs)
    .addOptional('time_ms <= ?', query.endTimeMs)
    .addOptional('trade_id < ?', query.idLessThan);
  return {
    text: `SELECT * FROM trades WHERE ${where.text} ORDER BY trade_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function tradeOf(row: Row): TradeRow {
  return {
    tradeId: String(row.trade_id),
    category: String(row.category),
    symbol: String(row.symbol),
    price: String(row.price),
    quantity: String(row.quantity),
    side: String(row.side),
    timeMs: Number(row.time_ms),
  };
}

// Integers are read as text: a driver may hand a 64-bit integer back as a lossy JS number.
const CANDLE_COLUMNS =
  'bucket_ms, CAST(open AS TEXT) AS open, CAST(high AS TEXT) AS high, CAST(low AS TEXT) AS low, ' +
  'CAST(close AS TEXT) AS close, CAST(base_volume AS TEXT) AS base_volume, ' +
  'CAST(quote_volume AS TEXT) AS quote_volume, trades';

export function candlesSql(query: CandleQuery): Sql {
  const { kind, category, symbol, resolution } = query;
  const filter = 'kind = ? AND category = ? AND symbol = ? AND resolution = ?';
  if (query.before) {
    return {
      text: `SELECT ${CANDLE_COLUMNS} FROM candles WHERE ${filter} AND bucket_ms < ? ORDER BY bucket_ms DESC LIMIT 1`,
      params: [kind, category, symbol, resolution, query.fromMs],
    };
  }
  return {
    text: `SELECT ${CANDLE_COLUMNS} FROM candles WHERE ${filter} AND bucket_ms >= ? AND bucket_ms <= ? ORDER BY bucket_ms ASC`,
    params: [kind, category, symbol, resolution, query.fromMs, query.toMs],
  };
}

export function candleOf(row: Row): CandleRow {
  return {
    bucketMs: Number(row.bucket_ms),
    open: BigInt(String(row.open)),
    high: BigInt(String(row.high)),
    low: BigInt(String(row.low)),
    close: BigInt(String(row.close)),
    baseVolume: BigInt(String(row.base_volume)),
    quoteVolume: BigInt(String(row.quote_volume)),
    trades: Number(row.trades),
  };
}

export function positionHistorySql(query: PositionHistoryQuery): Sql {
  const where = new Where()
    .add('uid = ?', query.uid)
    .addIn('category', query.categories)
    .addOptional('symbol = ?', query.symbol)
    .addOptional('closed_ms >= ?', query.startTimeMs)
    .addOptional('closed_ms <= ?', query.endTimeMs)
    .addOptional('position_id < ?', query.idLessThan);
  return {
    text: `SELECT body FROM position_history WHERE ${where.text} ORDER BY position_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function positionHistoryOf(row: Row): PositionHistoryRow {
  return JSON.parse(String(row.body)) as PositionHistoryRow;
}

// Plan orders (engine/triggers, docs/triggers.md).

export function plansSql(query: PlanQuery): Sql {
  const where = new Where()
    .add('uid = ?', query.uid)
    .addIn('category', query.categories)
    .addOptional('symbol = ?', query.symbol)
    .addIn('plan_type', query.planTypes)
    .addIn('status', query.statuses)
    .addOptional('created_ms >= ?', query.startTimeMs)
    .addOptional('created_ms <= ?', query.endTimeMs)
    .addOptional('plan_id < ?', query.idLessThan);
  return {
    text: `SELECT body FROM plans WHERE ${where.text} ORDER BY plan_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function planSql(uid: string, reference: { planId?: string; clientOid?: string }): Sql {
  return reference.planId
    ? { text: 'SELECT body FROM plans WHERE uid = ? AND plan_id = ?', params: [uid, reference.planId] }
    : {
        text: 'SELECT body FROM plans WHERE uid = ? AND client_oid = ? ORDER BY plan_id DESC LIMIT 1',
        params: [uid, reference.clientOid ?? ''],
      };
}

export function planOf(row: Row): PlanView {
  return JSON.parse(String(row.body)) as PlanView;
}

// Market statistics (src/market/market-stats.ts).

export function fundingRatesSql(query: FundingRateQuery): Sql {
  return {
    text:
      'SELECT category, symbol, funding_rate, time_ms FROM funding_rates WHERE category = ? AND symbol = ? ' +
      'ORDER BY time_ms DESC LIMIT ? OFFSET ?',
    params: [query.category, query.symbol, query.limit, query.offset],
  };
}

export function fundingRateOf(row: Row): FundingRateRow {
  return {
    category: String(row.category),
    symbol: String(row.symbol),
    fundingRate: String(row.funding_rate),
    timeMs: Number(row.time_ms),
  };
}

export function positionSpansSql(query: PositionSpanQuery): Sql {
  return {
    text:
      'SELECT position_id, uid, hold_side, size, opened_ms, closed_ms FROM position_spans ' +
      'WHERE category = ? AND symbol = ? AND closed_ms >= ? ORDER BY closed_ms ASC',
    params: [query.category, query.symbol, query.closedFromMs],
  };
}

export function positionSpanOf(row: Row): PositionSpanRow {
  return {
    positionId: String(row.position_id),
    uid: String(row.uid),
    holdSide: String(row.hold_side),
    size: String(row.size),
    openedMs: Number(row.opened_ms),
    closedMs: Number(row.closed_ms),
  };
}
