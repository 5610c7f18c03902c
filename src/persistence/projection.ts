/**
 * Events → rows, once for every store. A store writes these rows in the same transaction as
 * the journal entries that produced the events (DESIGN.md §4).
 *
 * Rows are gathered in a RowBatch: per target (a table and a write mode), each row its values
 * as an array in the table's column order (schema.ts). The frequent rows (orders, fills,
 * bills, trades, plans, closed positions) are built straight as arrays (projectEvent); the
 * others as named RowWrites (rowsOf, brokerage-rows.ts, candle-rows.ts), laid out by their
 * table's columns.
 * Stores consume the batch table by table: SQLite one prepared statement per target, PostgreSQL
 * one text parameter per target, JSON where a value holds a separator (postgres/batch-write.ts).
 */
import type { EngineEvent, FillView } from '../domain/events.ts';
import {
  brokerFundingRows,
  commissionRows,
  customerRows,
  fundingRecordRow,
  kycRows,
  settledFundingRows,
  transferRows,
} from './brokerage-rows.ts';
import { barRows, CandleMerge, candleRows, type CandleKind } from './candle-rows.ts';
import { fundingRateRows, positionSpanRow, takerBuyRows } from './market-stats-rows.ts';
import { convertRows, walletRecordRows } from './wallet-rows.ts';
import { marginLiquidationRows } from './margin-rows.ts';
import { tableOf, type Table } from './schema.ts';
import { fillBody, orderBody } from './view-bodies.ts';
import { billPairValues, fillSharesPair, fillWithBillsValues, pairsWith } from './bill-pairs.ts';

export type Value = string | number;

export interface RowWrite {
  table: string;
  row: Record<string, Value>;
  /** `upsert` replaces the row with the same primary key (orders change over their life). */
  mode: 'insert' | 'upsert';
}

/**
 * Where rows go: a table and how they are written (`insert`, or `upsert`: replace the row with
 * the same primary key, or merge into it for tables with merge rules). `slot` numbers targets
 * within this process, so stores can keep a statement per target in an array.
 */
export interface Target {
  readonly slot: number;
  readonly table: Table;
  readonly mode: RowWrite['mode'];
  readonly columns: readonly string[];
  /** The position in a row of the column that identifies it (Table.primaryKey, unique on its own). */
  readonly keyIndex: number;
}

const targets = new Map<string, Target>();

/** The target of a table and mode (one object per pair). */
export function targetOf(table: string, mode: RowWrite['mode']): Target {
  const key = `${mode} ${table}`;
  let target = targets.get(key);
  if (!target) {
    const spec = tableOf(table);
    const columns = spec.columns.map(([name]) => name);
    target = { slot: targets.size, table: spec, mode, columns, keyIndex: columns.indexOf(spec.primaryKey) };
    targets.set(key, target);
  }
  return target;
}

/** One append's rows, grouped by target, in the order they were added within each target. */
export class RowBatch {
  /** Targets in the order of their first row. */
  readonly targets: Target[] = [];
  /** Rows by target slot. */
  private readonly bySlot: (Value[][] | undefined)[] = [];
  /** Where each row added by `addNew` sits in its target's rows, by primary key, by target slot (built when first needed). */
  private readonly newRows: (Map<Value, number> | undefined)[] = [];
  /** Trades' candle rows, merged as they are added (built on the first). */
  private candles: CandleMerge | undefined;

  add(target: Target, values: Value[]): void {
    const rows = this.bySlot[target.slot];
    if (rows) rows.push(values);
    else {
      this.bySlot[target.slot] = [values];
      this.targets.push(target);
    }
  }

  /**
   * The first row of a new key (an order this append opened): written by a plain insert,
   * which costs PostgreSQL about a fifth less than an upsert (docs/performance.md).
   */
  addNew(target: Target, values: Value[]): void {
    this.newRows[target.slot]?.set(values[target.keyIndex] as Value, this.bySlot[target.slot]?.length ?? 0);
    this.add(target, values);
  }

  /**
   * A later row of a key: it replaces the row `addNew` gave `inserted` for the same key in this
   * batch (one statement may not insert a row and then upsert it), else it is an upsert. The
   * index of inserted rows by key is built on the first update that needs it: most batches
   * (orders opened and done in one command) have none.
   */
  addUpdate(target: Target, inserted: Target, values: Value[]): void {
    const rows = this.bySlot[inserted.slot];
    if (rows !== undefined) {
      let byKey = this.newRows[inserted.slot];
      if (byKey === undefined) {
        byKey = new Map();
        for (let at = 0; at < rows.length; at += 1)
          byKey.set((rows[at] as Value[])[inserted.keyIndex] as Value, at);
        this.newRows[inserted.slot] = byKey;
      }
      const at = byKey.get(values[target.keyIndex] as Value);
      if (at !== undefined) {
        rows[at] = values;
        return;
      }
    }
    this.add(target, values);
  }

  /** A named row, laid out by its table's columns (a missing column is undefined). */
  addWrite(write: RowWrite, target: Target = targetOf(write.table, write.mode)): void {
    const columns = target.columns;
    const values: Value[] = new Array<Value>(columns.length);
    for (let index = 0; index < columns.length; index += 1) {
      values[index] = write.row[columns[index] as string] as Value;
    }
    this.add(target, values);
  }

  /**
   * A trade's candle rows (candle-rows.ts), merged into the rows of `target` this batch holds
   * for the same keys: the rows candleRows gives, already folded. Only trades' kinds (market,
   * taker_buy) come this way, so no key also gets rows through `add`, whose order the fold
   * before the write would have to keep.
   */
  addCandles(
    target: Target,
    kind: CandleKind,
    category: string,
    symbol: string,
    price: string,
    quantity: string,
    timeMs: number,
  ): void {
    const merge = (this.candles ??= new CandleMerge());
    const rows = this.bySlot[target.slot];
    if (rows) {
      merge.add(rows, kind, category, symbol, price, quantity, timeMs);
      return;
    }
    const first: Value[][] = [];
    merge.add(first, kind, category, symbol, price, quantity, timeMs);
    if (first.length === 0) return;
    this.bySlot[target.slot] = first;
    this.targets.push(target);
  }

  /** The rows of `target`, candle sums written out (not called while adding: see addCandles). */
  rowsOf(target: Target): Value[][] {
    this.candles?.settle();
    return this.bySlot[target.slot] ?? [];
  }

  get isEmpty(): boolean {
    return this.targets.length === 0;
  }
}

// The targets of the frequent rows, and the column order their arrays follow (schema.ts).
const BILLS = targetOf('bills', 'insert');
const ORDERS = targetOf('orders', 'upsert');
const NEW_ORDERS = targetOf('orders', 'insert');
const FILLS = targetOf('fills', 'insert');
const POSITION_HISTORY = targetOf('position_history', 'upsert');
const TRADES = targetOf('trades', 'insert');
const PLANS = targetOf('plans', 'upsert');
const CANDLES = targetOf('candles', 'upsert');

const BILL_PAIRS = targetOf('bill_pairs', 'insert');
const FILLS_WITH_BILLS = targetOf('fills_with_bills', 'insert');

/**
 * The rows of one entry's events, added to `batch`: each event's (projectEvent), except that
 * two bills posted back to back for one cause make one row of `bill_pairs`, or, when the fill
 * they settle comes right after them, one row of `fills_with_bills` with it (bill-pairs.ts).
 */
export function projectEvents(batch: RowBatch, events: readonly EngineEvent[]): void {
  for (let at = 0; at < events.length; at += 1) {
    const event = events[at] as EngineEvent;
    if (event.type === 'BillPosted') {
      const next = events[at + 1];
      if (next?.type === 'BillPosted' && pairsWith(event, next)) {
        const after = events[at + 2];
        if (after?.type === 'FillRecorded' && fillSharesPair(after.fill, event)) {
          batch.add(FILLS_WITH_BILLS, fillWithBillsValues(fillValues(after.fill), event, next));
          at += 2;
        } else {
          batch.add(BILL_PAIRS, billPairValues(event, next));
          at += 1;
        }
        continue;
      }
    }
    projectEvent(batch, event);
  }
}

/** The values of a `fills` row (its columns' order, schema.ts). */
function fillValues(fill: FillView): Value[] {
  // exec_id, uid, order_id, category, symbol, time_ms, body
  return [fill.execId, fill.uid, fill.orderId, fill.category, fill.symbol, fill.timeMs, fillBody(fill)];
}

/** The rows of one event, added to `batch`. */
export function projectEvent(batch: RowBatch, event: EngineEvent): void {
  switch (event.type) {
    case 'BillPosted':
      // bill_id, uid, wallet, coin, symbol, amount, fee, balance, business_type, category, time_ms
      batch.add(BILLS, [
        event.billId,
        event.uid,
        event.wallet,
        event.coin,
        event.symbol,
        event.amount.toString(),
        event.fee.toString(),
        event.balanceAfter.toString(),
        event.businessType,
        event.category,
        event.timeMs,
      ]);
      return;
    case 'OrderUpdated': {
      // order_id, uid, client_oid, category, symbol, status, created_ms, updated_ms, body
      const order = event.order;
      const row = [
        order.orderId,
        order.uid,
        order.clientOid,
        order.category,
        order.symbol,
        order.status,
        order.createdTimeMs,
        order.updatedTimeMs,
        orderBody(order),
      ];
      if (event.created) batch.addNew(NEW_ORDERS, row);
      else batch.addUpdate(ORDERS, NEW_ORDERS, row);
      return;
    }
    case 'FillRecorded':
      batch.add(FILLS, fillValues(event.fill));
      return;
    case 'PositionClosed': {
      // position_id, uid, category, symbol, closed_ms, body
      const position = event.position;
      batch.add(POSITION_HISTORY, [
        position.positionId,
        position.uid,
        position.category,
        position.symbol,
        position.updatedTimeMs,
        JSON.stringify(position),
      ]);
      batch.addWrite(positionSpanRow(position));
      return;
    }
    case 'TradeRecorded':
      // trade_id, category, symbol, price, quantity, side, time_ms
      batch.add(TRADES, [
        event.tradeId,
        event.category,
        event.symbol,
        event.price,
        event.quantity,
        event.side,
        event.timeMs,
      ]);
      // The rows of candleRows and takerBuyRows, merged per key as they are added.
      batch.addCandles(
        CANDLES,
        'market',
        event.category,
        event.symbol,
        event.price,
        event.quantity,
        event.timeMs,
      );
      if (event.side === 'buy')
        batch.addCandles(
          CANDLES,
          'taker_buy',
          event.category,
          event.symbol,
          event.price,
          event.quantity,
          event.timeMs,
        );
      return;
    case 'PlanUpdated': {
      // plan_id, uid, client_oid, category, symbol, plan_type, status, created_ms, updated_ms, body
      const plan = event.plan;
      batch.add(PLANS, [
        plan.planId,
        plan.uid,
        plan.clientOid,
        plan.category,
        plan.symbol,
        plan.planType,
        plan.status,
        plan.createdTimeMs,
        plan.updatedTimeMs,
        JSON.stringify(plan),
      ]);
      return;
    }
    default:
      for (const write of rowsOf(event)) batch.addWrite(write);
  }
}

/**
 * The rows of one event as named RowWrites: the readable form of every projection, and what
 * projectEvent uses for the rarer events. projectEvent builds the frequent ones as arrays
 * directly; test/persistence/projection.test.ts checks that both give the same rows.
 */
export function rowsOf(event: EngineEvent): RowWrite[] {
  switch (event.type) {
    case 'BillPosted':
      return [
        {
          table: 'bills',
          mode: 'insert',
          row: {
            bill_id: event.billId,
            uid: event.uid,
            wallet: event.wallet,
            coin: event.coin,
            symbol: event.symbol,
            amount: event.amount.toString(),
            fee: event.fee.toString(),
            balance: event.balanceAfter.toString(),
            business_type: event.businessType,
            category: event.category,
            time_ms: event.timeMs,
          },
        },
      ];
    case 'FundingRecorded':
      return [fundingRecordRow(event, event.timeMs), ...brokerFundingRows(event), ...walletRecordRows(event)];
    case 'FundingSettled':
      return [...settledFundingRows(event), ...walletRecordRows(event)];
    case 'ConvertRecorded':
      return convertRows(event);
    case 'MarginLiquidated':
      return marginLiquidationRows(event);
    case 'TransferRecorded':
      return transferRows(event);
    case 'CustomerReferred':
      return customerRows(event);
    case 'KycRecorded':
      return kycRows(event);
    case 'CommissionRecorded':
      return commissionRows(event);
    case 'OrderUpdated': {
      const order = event.order;
      return [
        {
          table: 'orders',
          mode: event.created ? 'insert' : 'upsert',
          row: {
            order_id: order.orderId,
            uid: order.uid,
            client_oid: order.clientOid,
            category: order.category,
            symbol: order.symbol,
            status: order.status,
            created_ms: order.createdTimeMs,
            updated_ms: order.updatedTimeMs,
            body: orderBody(order),
          },
        },
      ];
    }
    case 'FillRecorded': {
      const fill = event.fill;
      return [
        {
          table: 'fills',
          mode: 'insert',
          row: {
            exec_id: fill.execId,
            uid: fill.uid,
            order_id: fill.orderId,
            category: fill.category,
            symbol: fill.symbol,
            time_ms: fill.timeMs,
            body: fillBody(fill),
          },
        },
      ];
    }
    case 'PositionClosed': {
      const position = event.position;
      return [
        {
          table: 'position_history',
          mode: 'upsert',
          row: {
            position_id: position.positionId,
            uid: position.uid,
            category: position.category,
            symbol: position.symbol,
            closed_ms: position.updatedTimeMs,
            body: JSON.stringify(position),
          },
        },
        positionSpanRow(position),
      ];
    }
    case 'TradeRecorded':
      return [
        {
          table: 'trades',
          mode: 'insert',
          row: {
            trade_id: event.tradeId,
            category: event.category,
            symbol: event.symbol,
            price: event.price,
            quantity: event.quantity,
            side: event.side,
            time_ms: event.timeMs,
          },
        },
        ...candleRows('market', event.category, event.symbol, event.price, event.quantity, event.timeMs),
        ...takerBuyRows(event),
      ];
    case 'PlanUpdated': {
      const plan = event.plan;
      return [
        {
          table: 'plans',
          mode: 'upsert',
          row: {
            plan_id: plan.planId,
            uid: plan.uid,
            client_oid: plan.clientOid,
            category: plan.category,
            symbol: plan.symbol,
            plan_type: plan.planType,
            status: plan.status,
            created_ms: plan.createdTimeMs,
            updated_ms: plan.updatedTimeMs,
            body: JSON.stringify(plan),
          },
        },
      ];
    }
    case 'IndexPriceSet':
      return candleRows('index', event.category, event.symbol, event.indexPrice, '0', event.timeMs);
    case 'IndexBarsWalked':
      return event.bars.flatMap((bar) => barRows('index', event.category, event.symbol, bar));
    case 'FundingRateSettled':
      return fundingRateRows(event);
    default:
      return [];
  }
}
