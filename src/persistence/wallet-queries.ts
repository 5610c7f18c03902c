/**
 * Read SQL of the wallet records and convert trades (ports/wallet-store.ts). Each WHERE and
 * ORDER BY matches an index of migration 60 in schema.ts.
 */
import type { ConvertQuery, ConvertRow, WalletRecordQuery, WalletRecordRow } from '../ports/wallet-store.ts';
import { newestRecordsSql, Where, type Row, type Sql } from './queries.ts';

export function walletRecordsSql(query: WalletRecordQuery): Sql {
  const where = new Where().add('uid = ?', query.uid).add('direction = ?', query.direction);
  if (query.recordId !== undefined) where.add('record_id = ?', query.recordId);
  else {
    where
      .addOptional('coin = ?', query.coin)
      .addOptional('client_oid = ?', query.clientOid)
      .addOptional('created_ms >= ?', query.startTimeMs)
      .addOptional('created_ms <= ?', query.endTimeMs)
      .addOptional('record_id < ?', query.idLessThan);
  }
  return newestRecordsSql('wallet_records', where, query.limit);
}

export function walletRecordOf(row: Row): WalletRecordRow {
  return {
    recordId: String(row.record_id),
    uid: String(row.uid),
    direction: row.direction === 'withdrawal' ? 'withdrawal' : 'deposit',
    coin: String(row.coin),
    amount: BigInt(String(row.amount)),
    status: String(row.status),
    dest: String(row.dest),
    chain: String(row.chain),
    toAddress: String(row.to_address),
    fromAddress: String(row.from_address),
    tag: String(row.tag),
    clientOid: String(row.client_oid),
    txId: String(row.tx_id),
    createdTimeMs: Number(row.created_ms),
    updatedTimeMs: Number(row.updated_ms),
  };
}

export function convertsSql(query: ConvertQuery): Sql {
  const where = new Where()
    .add('uid = ?', query.uid)
    .addOptional('from_coin = ?', query.fromCoin)
    .addOptional('to_coin = ?', query.toCoin)
    .addOptional('time_ms >= ?', query.startTimeMs)
    .addOptional('time_ms <= ?', query.endTimeMs)
    .addOptional('record_id < ?', query.idLessThan);
  return newestRecordsSql('convert_records', where, query.limit);
}

export function convertOf(row: Row): ConvertRow {
  return {
    recordId: String(row.record_id),
    uid: String(row.uid),
    fromCoin: String(row.from_coin),
    toCoin: String(row.to_coin),
    fromAmount: BigInt(String(row.from_amount)),
    toAmount: BigInt(String(row.to_amount)),
    price: String(row.price),
    fee: BigInt(String(row.fee)),
    traceId: String(row.trace_id),
    timeMs: Number(row.time_ms),
  };
}
