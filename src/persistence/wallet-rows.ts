/**
 * Projection rows of the wallet records (tables of migration 60 in schema.ts): a deposit or
 * withdrawal with its route, upserted when recorded and again when settled (so a record made
 * and settled in one append folds to its last state), and a convert trade.
 *
 * Records without a route (a transfer's `internal` records for the broker report) are not
 * deposits or withdrawals of their own and get no row here.
 */
import type { ConvertRecorded, FundingRecorded, FundingSettled } from '../domain/events.ts';
import type { RowWrite } from './projection.ts';

export function walletRecordRows(event: FundingRecorded | FundingSettled): RowWrite[] {
  const detail = event.detail;
  if (!detail) return [];
  const createdMs = event.type === 'FundingSettled' ? event.createdTimeMs : event.timeMs;
  return [
    {
      table: 'wallet_records',
      mode: 'upsert',
      row: {
        record_id: event.recordId,
        uid: event.uid,
        direction: event.direction,
        coin: event.coin,
        amount: event.amount.toString(),
        status: event.status,
        dest: detail.dest,
        chain: detail.chain,
        to_address: detail.toAddress,
        from_address: detail.fromAddress,
        tag: detail.tag,
        client_oid: detail.clientOid,
        tx_id: event.txId,
        created_ms: createdMs,
        updated_ms: event.timeMs,
      },
    },
  ];
}

export function convertRows(event: ConvertRecorded): RowWrite[] {
  return [
    {
      table: 'convert_records',
      mode: 'insert',
      row: {
        record_id: event.recordId,
        uid: event.uid,
        from_coin: event.fromCoin,
        to_coin: event.toCoin,
        from_amount: event.fromAmount.toString(),
        to_amount: event.toAmount.toString(),
        price: event.price,
        fee: event.fee.toString(),
        trace_id: event.traceId,
        time_ms: event.timeMs,
      },
    },
  ];
}
