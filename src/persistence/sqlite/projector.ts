/**
 * Events → SQLite rows. Runs inside the append transaction, so the projections are always
 * exactly as durable as the journal entries that produced them.
 */
import type Database from 'better-sqlite3';
import type { EngineEvent } from '../../domain/events.ts';

export function createSqliteProjector(db: Database.Database): (event: EngineEvent) => void {
  const insertBill = db.prepare(
    `INSERT INTO bills (bill_id, uid, wallet, coin, symbol, amount, fee, balance, business_type, time_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFunding = db.prepare(
    `INSERT INTO funding_records (record_id, tx_id, uid, coin, amount, direction, sub_type, status, time_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const upsertOrder = db.prepare(
    `INSERT OR REPLACE INTO orders (order_id, uid, client_oid, category, symbol, status, created_ms, updated_ms, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFill = db.prepare(
    `INSERT INTO fills (exec_id, uid, order_id, category, symbol, time_ms, body) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTrade = db.prepare(
    `INSERT INTO trades (trade_id, category, symbol, price, quantity, side, time_ms) VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  return (event) => {
    switch (event.type) {
      case 'BillPosted':
        insertBill.run(
          event.billId,
          event.uid,
          event.wallet,
          event.coin,
          event.symbol,
          event.amount.toString(),
          event.fee.toString(),
          event.balanceAfter.toString(),
          event.businessType,
          event.timeMs,
        );
        return;
      case 'FundingRecorded':
        insertFunding.run(
          event.recordId,
          event.txId,
          event.uid,
          event.coin,
          event.amount.toString(),
          event.direction,
          event.subType,
          event.status,
          event.timeMs,
        );
        return;
      case 'OrderUpdated': {
        const order = event.order;
        upsertOrder.run(
          order.orderId,
          order.uid,
          order.clientOid,
          order.category,
          order.symbol,
          order.status,
          order.createdTimeMs,
          order.updatedTimeMs,
          JSON.stringify(order),
        );
        return;
      }
      case 'FillRecorded': {
        const fill = event.fill;
        insertFill.run(
          fill.execId,
          fill.uid,
          fill.orderId,
          fill.category,
          fill.symbol,
          fill.timeMs,
          JSON.stringify(fill),
        );
        return;
      }
      case 'TradeRecorded':
        insertTrade.run(
          event.tradeId,
          event.category,
          event.symbol,
          event.price,
          event.quantity,
          event.side,
          event.timeMs,
        );
        return;
      default:
        return;
    }
  };
}
