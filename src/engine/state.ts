/**
 * The engine's whole state: plain data (Maps, bigints, strings), so that a snapshot is a
 * serialisation of this object and nothing else.
 */
import type { Account, ApiKeyRecord } from '../domain/account.ts';
import type { Instrument } from '../domain/instrument.ts';
import type { Order } from '../domain/order.ts';
import type { Position, PositionMode, SymbolSettings } from '../domain/position.ts';
import type { Balance } from '../domain/wallet.ts';
import { createBrokerageState, type BrokerageState } from './accounts/brokerage-state.ts';
import { createPlanState, type PlanState } from './triggers/plan-state.ts';

export interface EngineState {
  /** Next id for orders, fills, bills and records (one counter keeps ids globally unique). */
  nextId: number;
  /** Next account uid. */
  nextUid: number;
  /** The engine's clock: the latest command time, or simulated time. */
  nowMs: number;
  /** Offset added to command times when the clock is simulated (advanced by the operator). */
  clockOffsetMs: number;
  accounts: Map<string, Account>;
  apiKeys: Map<string, ApiKeyRecord>;
  /** Key: `${uid}|${wallet}|${coin}`. */
  balances: Map<string, Balance>;
  /** Key: `${category}:${symbol}`. */
  instruments: Map<string, Instrument>;
  /** Index price per instrument key, decimal string. */
  indexPrices: Map<string, string>;
  /** Coins that entered (+) and left (−) the system through the operator, per coin. */
  externalFlows: Map<string, bigint>;
  /** Open orders (live, partially filled); closed ones live in the projections. */
  orders: Map<string, Order>;
  /** `${uid}|${clientOid}` → order id and time, for the six-hour idempotency window. */
  clientOids: Map<string, { orderId: string; timeMs: number }>;
  /**
   * Open order counts per uid: by line (`spot` = spot + margin, `futures`) and by instrument
   * key (`${category}:${symbol}`). Derived from `orders`: rebuilt when an engine is made from
   * a snapshot (trading-context.ts `rebuildOpenOrderCounts`), so a snapshot's copy is ignored.
   */
  openOrderCounts: Map<string, Map<string, number>>;
  /** Last trade price per instrument key, ticks. */
  lastTradeTicks: Map<string, number>;
  /** Trading fees collected, per coin (part of the conservation sum). */
  feesCollected: Map<string, bigint>;
  /** Margin interest charged and not yet paid is a debt; this counts it as the lender's income. */
  interestAccrued: Map<string, bigint>;
  /** Time priority counter for the books. */
  nextSequence: number;
  /** Start of the hour up to which margin interest has been charged. */
  interestChargedToMs: number;
  /** Transfers, pending deposits/withdrawals, agents, KYC and commission accruals. */
  brokerage: BrokerageState;
  /** Futures positions, key `${uid}|${category}|${symbol}|${holdSide}`. */
  positions: Map<string, Position>;
  /** Position mode per `${uid}|${category}` (one-way when absent). */
  positionModes: Map<string, PositionMode>;
  /** Margin mode and leverage per `${uid}|${category}|${symbol}`. */
  symbolSettings: Map<string, SymbolSettings>;
  /** USDT-M asset mode per uid: present (`union`) when multi-asset margin is on. */
  assetModes: Map<string, 'union'>;
  /** Funding per instrument key: next settlement time and an operator-set rate. */
  funding: Map<string, { nextFundingTimeMs: number; rateOverride: string | null; lastRate: string }>;
  /** Plan orders (triggers, trailing stops, TP/SL) and their indexes (engine/triggers). */
  plans: PlanState;
  /** `${uid}|${clientOid}` → the withdrawal record it made (a withdrawal clientOid is unique). */
  withdrawalClientOids: Map<string, string>;
}

/** First uid handed out: ten digits, like the venue's. */
export const FIRST_UID = 1_000_000_001;
/** First order/fill/bill id: ids print as 18-digit strings, like the venue's. */
export const ID_BASE = 10n ** 17n;

export function createState(): EngineState {
  return {
    nextId: 1,
    nextUid: FIRST_UID,
    nowMs: 0,
    clockOffsetMs: 0,
    accounts: new Map(),
    apiKeys: new Map(),
    balances: new Map(),
    instruments: new Map(),
    indexPrices: new Map(),
    externalFlows: new Map(),
    orders: new Map(),
    clientOids: new Map(),
    openOrderCounts: new Map(),
    lastTradeTicks: new Map(),
    feesCollected: new Map(),
    interestAccrued: new Map(),
    nextSequence: 1,
    interestChargedToMs: 0,
    brokerage: createBrokerageState(),
    positions: new Map(),
    positionModes: new Map(),
    symbolSettings: new Map(),
    funding: new Map(),
    assetModes: new Map(),
    plans: createPlanState(),
    withdrawalClientOids: new Map(),
  };
}
