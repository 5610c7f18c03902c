/**
 * The engine state of transfers, pending deposits and withdrawals, agents and commissions:
 * plain data, part of EngineState (`state.brokerage`), snapshotted and hashed with it.
 *
 * Invariants: a pending withdrawal's amount is frozen in its wallet until it settles; a
 * commission accrual exists only for a day that has not been closed yet.
 */
import type { FundingDetail } from '../../domain/funding.ts';

export interface PendingFunding {
  recordId: string;
  txId: string;
  uid: string;
  /** '' for a main account. */
  parentUid: string;
  wallet: string;
  coin: string;
  amount: bigint;
  direction: 'deposit' | 'withdrawal';
  subType: 'onchain' | 'internal' | 'fast';
  createdTimeMs: number;
  /** The wallet record's route (absent on records made before routes were kept). */
  detail?: FundingDetail;
}

export interface AgentTerms {
  /** Money scale: MONEY_ONE is 100 %. */
  rebateRate: bigint;
  lineRates: { spot?: bigint; margin?: bigint; futures?: bigint };
  registeredTimeMs: number;
}

/** Fees of one referred customer in one UTC+8 day, coin and market, accumulated as fills happen. */
export interface CommissionAccrual {
  agentUid: string;
  uid: string;
  dayStartMs: number;
  coin: string;
  symbol: string;
  category: string;
  dealAmount: bigint;
  fee: bigint;
}

export interface BrokerageState {
  /** recordId → a deposit or withdrawal awaiting the operator. */
  pendingFunding: Map<string, PendingFunding>;
  /** `${uid}|${clientOid}` → the transfer it made, for the idempotency window. */
  transferClientOids: Map<string, { transferId: string; fingerprint: string; timeMs: number }>;
  agents: Map<string, AgentTerms>;
  /** customer uid → its agent. */
  referrals: Map<string, { agentUid: string; timeMs: number }>;
  kyc: Map<string, { result: 'passed' | 'not_passed'; timeMs: number }>;
  /** `${uid}|${dayStartMs}|${coin}|${symbol}` → the day's open accrual. */
  accruals: Map<string, CommissionAccrual>;
  /** `${uid}|${coin}` → commission over all closed days (totalRebateAmount). */
  rebateTotals: Map<string, bigint>;
  /** 00:00 UTC+8 of the first day not yet closed (0 before the first run). */
  commissionsClosedToMs: number;
  /** Start of the hour up to which expired transfer clientOids were dropped. */
  clientOidsPrunedToMs: number;
}

export function createBrokerageState(): BrokerageState {
  return {
    pendingFunding: new Map(),
    transferClientOids: new Map(),
    agents: new Map(),
    referrals: new Map(),
    kyc: new Map(),
    accruals: new Map(),
    rebateTotals: new Map(),
    commissionsClosedToMs: 0,
    clientOidsPrunedToMs: 0,
  };
}
