/**
 * Deposit and withdrawal records in the venue's shapes: v2 (`orderId`, `tradeId`, `cTime`)
 * and v3 (`recordId` is the chain transaction id, `createdTime`). bourse charges no
 * withdrawal fee (the coins list says `withdrawFee` 0), so `fee` is "0"; `confirm` is the
 * one confirmation a settled record has.
 */
import { formatMoney } from '../../domain/money.ts';
import type { WalletRecordRow } from '../../ports/wallet-store.ts';

function common(row: WalletRecordRow) {
  return {
    orderId: row.recordId,
    coin: row.coin,
    type: row.direction === 'deposit' ? 'deposit' : 'withdraw',
    dest: row.dest,
    size: formatMoney(row.amount),
    status: row.status,
    fromAddress: row.fromAddress,
    toAddress: row.toAddress,
    chain: row.chain,
  };
}

function withdrawalExtras(row: WalletRecordRow) {
  return {
    clientOid: row.clientOid,
    tag: row.tag,
    fee: '0',
    confirm: row.status === 'success' ? '1' : '0',
  };
}

export function v2WalletRecord(row: WalletRecordRow): Record<string, string> {
  return {
    ...common(row),
    tradeId: row.txId,
    ...(row.direction === 'withdrawal' ? withdrawalExtras(row) : {}),
    cTime: String(row.createdTimeMs),
    uTime: String(row.updatedTimeMs),
  };
}

export function v3WalletRecord(row: WalletRecordRow): Record<string, string> {
  return {
    ...common(row),
    recordId: row.txId,
    clientOid: row.clientOid,
    ...(row.direction === 'withdrawal' ? withdrawalExtras(row) : {}),
    createdTime: String(row.createdTimeMs),
    updatedTime: String(row.updatedTimeMs),
  };
}
