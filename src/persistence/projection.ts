/**
 * Events → rows, once for every store. A store writes these rows in the same transaction as
 * the journal entries that produced the events (DESIGN.md §4).
 */
import type { EngineEvent } from '../domain/events.ts';
import {
  brokerFundingRows,
  commissionRows,
  customerRows,
  fundingRecordRow,
  kycRows,
  settledFundingRows,
  transferRows,
} from './brokerage-rows.ts';
import { candleRows } from './candle-rows.ts';

export type Value = string | number;

export interface RowWrite {
  table: string;
  row: Record<string, Value>;
  /** `upsert` replaces the row with the same primary key (orders change over their life). */
  mode: 'insert' | 'upsert';
}

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
      return [fundingRecordRow(event, event.timeMs), ...brokerFundingRows(event)];
    case 'FundingSettled':
      return settledFundingRows(event);
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
          mode: 'upsert',
          row: {
            order_id: order.orderId,
            uid: order.uid,
            client_oid: order.clientOid,
            category: order.category,
            symbol: order.symbol,
            status: order.status,
            created_ms: order.createdTimeMs,
            updated_ms: order.updatedTimeMs,
            body: JSON.stringify(order),
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
            body: JSON.stringify(fill),
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
    default:
      return [];
  }
}
