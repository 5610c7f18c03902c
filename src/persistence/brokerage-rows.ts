/**
 * Projection rows of transfers, the broker's sub-account deposit/withdrawal records, agents'
 * customers, KYC results and commissions (tables of migration 10 in schema.ts). Every row is
 * an upsert by its primary key, so a record created and settled in one append folds to its
 * last state in every store.
 */
import type {
  CommissionRecorded,
  CustomerReferred,
  FundingRecorded,
  FundingSettled,
  KycRecorded,
  TransferRecorded,
} from '../domain/events.ts';
import type { RowWrite } from './projection.ts';

function walletParts(wallet: string): [type: string, symbol: string] {
  const at = wallet.indexOf(':');
  return at < 0 ? [wallet, ''] : [wallet.slice(0, at), wallet.slice(at + 1)];
}

export function transferRows(event: TransferRecorded): RowWrite[] {
  const [fromType, fromSymbol] = walletParts(event.fromWallet);
  const [toType, toSymbol] = walletParts(event.toWallet);
  return [
    {
      table: 'transfers',
      mode: 'upsert',
      row: {
        transfer_id: event.transferId,
        uid: event.uid,
        kind: event.kind,
        from_uid: event.fromUid,
        to_uid: event.toUid,
        client_oid: event.clientOid,
        coin: event.coin,
        from_type: fromType,
        from_symbol: fromSymbol,
        to_type: toType,
        to_symbol: toSymbol,
        amount: event.amount.toString(),
        status: 'success',
        time_ms: event.timeMs,
      },
    },
  ];
}

/** The broker's row of a sub-account's deposit or withdrawal (none for a main account). */
export function brokerFundingRows(event: FundingRecorded | FundingSettled): RowWrite[] {
  if (!event.parentUid) return [];
  const createdMs = event.type === 'FundingSettled' ? event.createdTimeMs : event.timeMs;
  return [
    {
      table: 'broker_funding',
      mode: 'upsert',
      row: {
        record_id: event.recordId,
        parent_uid: event.parentUid,
        uid: event.uid,
        tx_id: event.txId,
        coin: event.coin,
        direction: event.direction,
        sub_type: event.subType,
        amount: event.amount.toString(),
        status: event.status,
        created_ms: createdMs,
        updated_ms: event.timeMs,
      },
    },
  ];
}

/** The funding_records row of a record; `createdTimeMs` is its creation time, which it keeps. */
export function fundingRecordRow(
  record: Pick<FundingSettled, 'recordId' | 'txId' | 'uid' | 'coin' | 'amount' | 'direction' | 'subType'> & {
    status: string;
  },
  createdTimeMs: number,
): RowWrite {
  return {
    table: 'funding_records',
    // upsert: a pending record may be settled in the same append
    mode: 'upsert',
    row: {
      record_id: record.recordId,
      tx_id: record.txId,
      uid: record.uid,
      coin: record.coin,
      amount: record.amount.toString(),
      direction: record.direction,
      sub_type: record.subType,
      status: record.status,
      time_ms: createdTimeMs,
    },
  };
}

/** A settled record replaces its funding_records row (which keeps its creation time). */
export function settledFundingRows(event: FundingSettled): RowWrite[] {
  return [fundingRecordRow(event, event.createdTimeMs), ...brokerFundingRows(event)];
}

export function customerRows(event: CustomerReferred): RowWrite[] {
  return [
    {
      table: 'agent_customers',
      mode: 'upsert',
      row: { customer_uid: event.customerUid, agent_uid: event.agentUid, time_ms: event.timeMs },
    },
  ];
}

export function kycRows(event: KycRecorded): RowWrite[] {
  return [
    {
      table: 'agent_kyc',
      mode: 'upsert',
      row: { uid: event.uid, agent_uid: event.agentUid, result: event.result, time_ms: event.timeMs },
    },
  ];
}

export function commissionRows(event: CommissionRecorded): RowWrite[] {
  return [
    {
      table: 'commissions',
      mode: 'upsert',
      row: {
        record_id: event.recordId,
        agent_uid: event.agentUid,
        uid: event.uid,
        date_ms: event.dateMs,
        coin: event.coin,
        symbol: event.symbol,
        category: event.category,
        deal_amount: event.dealAmount.toString(),
        fee: event.fee.toString(),
        fee_paid: event.feePaid.toString(),
        rebate_amount: event.rebateAmount.toString(),
        user_rebate_amount: event.userRebateAmount.toString(),
        day_total_rebate: event.dayTotalRebateAmount.toString(),
        total_rebate: event.totalRebateAmount.toString(),
        time_ms: event.timeMs,
      },
    },
  ];
}
