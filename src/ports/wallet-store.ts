/**
 * Reads of the wallet records (tables of migration 60, persistence/wallet-rows.ts): deposits
 * and withdrawals with their routes, and convert trades. Newest first, by record id.
 */

/** A deposit or withdrawal of one account (money in minor units). */
export interface WalletRecordRow {
  recordId: string;
  uid: string;
  direction: 'deposit' | 'withdrawal';
  coin: string;
  amount: bigint;
  status: string;
  dest: string;
  chain: string;
  toAddress: string;
  fromAddress: string;
  tag: string;
  clientOid: string;
  txId: string;
  createdTimeMs: number;
  updatedTimeMs: number;
}

export interface WalletRecordQuery {
  uid: string;
  direction: 'deposit' | 'withdrawal';
  /** One record by id (the other filters then do not apply). */
  recordId?: string;
  coin?: string;
  clientOid?: string;
  /** On the creation time. */
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

export interface ConvertRow {
  recordId: string;
  uid: string;
  fromCoin: string;
  toCoin: string;
  fromAmount: bigint;
  toAmount: bigint;
  price: string;
  fee: bigint;
  traceId: string;
  timeMs: number;
}

export interface ConvertQuery {
  uid: string;
  fromCoin?: string;
  toCoin?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}
