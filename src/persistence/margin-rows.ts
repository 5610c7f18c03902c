/**
 * Spot margin liquidations: the row a MarginLiquidated event writes (migration 61 in
 * schema.ts) and the read of an account's rows, newest first by liquidation id.
 */
import type { MarginLiquidated } from '../domain/events.ts';
import type { MarginLiquidationQuery, MarginLiquidationRow } from '../ports/store.ts';
import type { RowWrite } from './projection.ts';
import { Where, type Row, type Sql } from './queries.ts';

export function marginLiquidationRows(event: MarginLiquidated): RowWrite[] {
  return [
    {
      table: 'margin_liquidations',
      mode: 'insert',
      row: {
        liq_id: event.liqId,
        uid: event.uid,
        wallet: event.wallet,
        symbol: event.symbol,
        risk_ratio: event.riskRatio.toString(),
        total_assets: event.totalAssetsUsdt.toString(),
        total_debt: event.totalDebtUsdt.toString(),
        liq_fee: event.feeUsdt.toString(),
        start_ms: event.startMs,
        end_ms: event.endMs,
      },
    },
  ];
}

export function marginLiquidationsSql(query: MarginLiquidationQuery): Sql {
  const where = new Where()
    .add('uid = ?', query.uid)
    .addIn('wallet', query.wallets.length > 0 ? query.wallets : [''])
    .addOptional('start_ms >= ?', query.startTimeMs)
    .addOptional('start_ms <= ?', query.endTimeMs)
    .addOptional('liq_id < ?', query.idLessThan);
  return {
    text: `SELECT * FROM margin_liquidations WHERE ${where.text} ORDER BY liq_id DESC LIMIT ?`,
    params: [...where.params, query.limit],
  };
}

export function marginLiquidationOf(row: Row): MarginLiquidationRow {
  return {
    liqId: String(row.liq_id),
    uid: String(row.uid),
    wallet: String(row.wallet),
    symbol: String(row.symbol),
    riskRatio: BigInt(String(row.risk_ratio)),
    totalAssetsUsdt: BigInt(String(row.total_assets)),
    totalDebtUsdt: BigInt(String(row.total_debt)),
    feeUsdt: BigInt(String(row.liq_fee)),
    startMs: Number(row.start_ms),
    endMs: Number(row.end_ms),
  };
}
