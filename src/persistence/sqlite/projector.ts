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
      default:
        return;
    }
  };
}
