/**
 * Events: immutable facts in the past tense. Projections (bills, deposit records, …) are
 * written from them in the same durable step as the command that produced them.
 */
import type { Account } from './account.ts';
import type { FundingDetail } from './funding.ts';
import type { Instrument } from './instrument.ts';
import type { OrderView } from './order-view.ts';
import type { PlanView } from './plan.ts';

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
  /** The product line the change belongs to (SPOT, MARGIN, USDT-FUTURES, …; OTHER for
   * deposits and transfers of a unified account's one wallet). */
  category: string;
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
  /** The main account when `uid` is a sub-account (the broker's records); absent otherwise. */
  parentUid?: string;
  /** A deposit or withdrawal proper (the wallet records); absent for a transfer's record. */
  detail?: FundingDetail;
}

/** A pending deposit or withdrawal was settled; the record as it now stands. */
export interface FundingSettled {
  type: 'FundingSettled';
  recordId: string;
  txId: string;
  uid: string;
  /** '' when `uid` is a main account. */
  parentUid: string;
  coin: string;
  amount: bigint;
  direction: 'deposit' | 'withdrawal';
  subType: 'onchain' | 'internal' | 'fast';
  status: 'fail' | 'success';
  createdTimeMs: number;
  timeMs: number;
  detail?: FundingDetail;
}

/** A convert trade (money in minor units; `price` toCoin per fromCoin, a decimal text). */
export interface ConvertRecorded {
  type: 'ConvertRecorded';
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

/**
 * A margin wallet liquidated (engine/margin/liquidation.ts): its risk ratio when it began, its
 * assets and debt in USDT then (money units), and the liquidation fee (bourse charges none).
 */
export interface MarginLiquidated {
  type: 'MarginLiquidated';
  liqId: string;
  uid: string;
  /** `crossed_margin`, `unified` or `isolated_margin:SYMBOL`. */
  wallet: string;
  /** The isolated wallet's symbol; '' for a crossed (or unified) wallet. */
  symbol: string;
  riskRatio: bigint;
  totalAssetsUsdt: bigint;
  totalDebtUsdt: bigint;
  feeUsdt: bigint;
  startMs: number;
  endMs: number;
}

/** A transfer between wallets (of one account, or of a main account and its sub-accounts). */
export interface TransferRecorded {
  type: 'TransferRecorded';
  transferId: string;
  /** Who asked (the main account for a sub-account transfer). */
  uid: string;
  kind: 'wallet' | 'sub';
  fromUid: string;
  toUid: string;
  fromWallet: string;
  toWallet: string;
  coin: string;
  amount: bigint;
  clientOid: string;
  timeMs: number;
}

export interface CustomerReferred {
  type: 'CustomerReferred';
  agentUid: string;
  customerUid: string;
  timeMs: number;
}

/** A KYC result as an agent sees it (`agentUid` '' while the account has no agent). */
export interface KycRecorded {
  type: 'KycRecorded';
  uid: string;
  agentUid: string;
  result: 'passed' | 'not_passed';
  timeMs: number;
}

/** One day's commission of one referred customer in one coin and market (money in minor units). */
export interface CommissionRecorded {
  type: 'CommissionRecorded';
  recordId: string;
  agentUid: string;
  uid: string;
  /** 00:00 UTC+8 of the day, Unix ms. */
  dateMs: number;
  coin: string;
  /** With the market suffix (BTCUSDT_SPBL, BTCUSDT_UMCBL, …). */
  symbol: string;
  category: string;
  dealAmount: bigint;
  fee: bigint;
  feePaid: bigint;
  rebateAmount: bigint;
  userRebateAmount: bigint;
  dayTotalRebateAmount: bigint;
  totalRebateAmount: bigint;
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

/** One minute of an index price walked by AdvanceClock: decimal texts, `startMs` on the minute. */
export interface IndexBar {
  startMs: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/**
 * The index prices one instrument took while the clock walked a price path, as minute bars
 * (one event per instrument per walk, instead of one IndexPriceSet per step).
 */
export interface IndexBarsWalked {
  type: 'IndexBarsWalked';
  category: string;
  symbol: string;
  bars: IndexBar[];
  timeMs: number;
}

/** The order as it stands after a command touched it (one event per order per command). */
export interface OrderUpdated {
  type: 'OrderUpdated';
  order: OrderView;
  /** This command opened the order: the event is its first (stores insert its row rather than upsert it). */
  created: boolean;
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
  /** Futures fills: the position side and the account's position mode. */
  posSide?: string;
  posMode?: string;
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

/** A position closed completely (or was settled): a row of the position history. */
export interface PositionClosed {
  type: 'PositionClosed';
  position: {
    positionId: string;
    uid: string;
    category: string;
    symbol: string;
    marginCoin: string;
    holdSide: string;
    posMode: string;
    marginMode: string;
    openAvgPrice: string;
    closeAvgPrice: string;
    openTotalPos: string;
    closeTotalPos: string;
    pnl: string;
    netProfit: string;
    totalFunding: string;
    openFee: string;
    closeFee: string;
    createdTimeMs: number;
    updatedTimeMs: number;
  };
}

/** A perpetual's funding settled at `timeMs` (its grid time) at `fundingRate` (a decimal, 0.0001 = 0.01 %). */
export interface FundingRateSettled {
  type: 'FundingRateSettled';
  category: string;
  symbol: string;
  fundingRate: string;
  timeMs: number;
}

/** A plan order as it stands after a command touched it (placed, modified, activated, ended). */
export interface PlanUpdated {
  type: 'PlanUpdated';
  plan: PlanView;
}

export type EngineEvent =
  | BillPosted
  | FundingRecorded
  | FundingSettled
  | ConvertRecorded
  | MarginLiquidated
  | TransferRecorded
  | CustomerReferred
  | KycRecorded
  | CommissionRecorded
  | AccountCreated
  | InstrumentChanged
  | IndexPriceSet
  | IndexBarsWalked
  | OrderUpdated
  | FillRecorded
  | TradeRecorded
  | PositionClosed
  | FundingRateSettled
  | PlanUpdated;
