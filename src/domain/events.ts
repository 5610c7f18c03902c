/**
 * Events: immutable facts in the past tense. Projections (bills, deposit records, …) are
 * written from them in the same durable step as the command that produced them.
 */
import type { Account } from './account.ts';
import type { Instrument } from './instrument.ts';
import type { OrderView } from './order-view.ts';

export interface BillPosted {
  type: 'BillPosted';
  billId: string;
  uid: string;
  wallet: string;
  coin: string;
  symbol: string;
  /** Signed change of the wallet's balance, minor units. */
  amount: bigint;
  fee: bigint;
  /** Wallet balance (available + frozen) after the change. */
  balanceAfter: bigint;
  businessType: string;
  timeMs: number;
}

export interface FundingRecorded {
  type: 'FundingRecorded';
  recordId: string;
  txId: string;
  uid: string;
  coin: string;
  amount: bigint;
  direction: 'deposit' | 'withdrawal';
  subType: 'onchain' | 'internal' | 'fast';
  status: 'pending' | 'fail' | 'success';
  timeMs: number;
}

export interface AccountCreated {
  type: 'AccountCreated';
  account: Account;
}

export interface InstrumentChanged {
  type: 'InstrumentChanged';
  instrument: Instrument;
  timeMs: number;
}

export interface IndexPriceSet {
  type: 'IndexPriceSet';
  category: string;
  symbol: string;
  indexPrice: string;
  timeMs: number;
}

/** The order as it stands after a command touched it (one event per order per command). */
export interface OrderUpdated {
  type: 'OrderUpdated';
  order: OrderView;
}

/** One side of a trade, as the fill history reports it. */
export interface FillRecorded {
  type: 'FillRecorded';
  fill: FillView;
}

export interface FillView {
  execId: string;
  tradeId: string;
  orderId: string;
  clientOid: string;
  uid: string;
  category: string;
  symbol: string;
  orderType: string;
  side: string;
  execPrice: string;
  execQty: string;
  execValue: string;
  tradeScope: 'taker' | 'maker';
  tradeSide: string;
  feeCoin: string;
  /** Fee paid, a positive decimal string (wire formats choose the sign). */
  fee: string;
  execPnl: string;
  timeMs: number;
}

export interface TradeRecorded {
  type: 'TradeRecorded';
  tradeId: string;
  category: string;
  symbol: string;
  price: string;
  quantity: string;
  /** Taker side. */
  side: string;
  timeMs: number;
}

export type EngineEvent =
  | BillPosted
  | FundingRecorded
  | AccountCreated
  | InstrumentChanged
  | IndexPriceSet
  | OrderUpdated
  | FillRecorded
  | TradeRecorded;
