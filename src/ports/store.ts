/**
 * The store port: journal, snapshots and projections. SQLite implements it today; every
 * implementation passes test/contracts/store.contract.ts.
 *
 * `append` is the durable step: the journal entries and the projection rows of their events
 * are written in one transaction, and the promise resolves only once that is on disk. A store
 * that also has `appendJournal` and `project` lets the projection rows be written behind the
 * journal (runtime/projector.ts): the journal entry alone is then the durable step.
 */
import type { Command } from '../domain/commands.ts';
import type { CommissionRecorded, EngineEvent, FillView, PositionClosed } from '../domain/events.ts';
import type { OrderView } from '../domain/order-view.ts';
import type { PlanView } from '../domain/plan.ts';
import type { ConvertQuery, ConvertRow, WalletRecordQuery, WalletRecordRow } from './wallet-store.ts';

export interface JournalEntry {
  seq: number;
  command: Command;
  events: readonly EngineEvent[];
}

export interface Snapshot {
  seq: number;
  timeMs: number;
  /** The encoded engine state (persistence/codec.ts). */
  body: string;
}

export interface BillRow {
  billId: string;
  uid: string;
  wallet: string;
  coin: string;
  symbol: string;
  amount: bigint;
  fee: bigint;
  balanceAfter: bigint;
  businessType: string;
  category: string;
  timeMs: number;
}

export interface MarginLiquidationQuery {
  uid: string;
  wallets: readonly string[];
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

export interface MarginLiquidationRow {
  liqId: string;
  uid: string;
  wallet: string;
  symbol: string;
  riskRatio: bigint;
  totalAssetsUsdt: bigint;
  totalDebtUsdt: bigint;
  feeUsdt: bigint;
  startMs: number;
  endMs: number;
}

export interface BillQuery {
  uid: string;
  /** Wallets to include (a prefix match is not used: exact wallet ids). */
  wallets: readonly string[];
  /** Product lines to include (bill category). */
  categories?: readonly string[];
  coin?: string;
  businessTypes?: readonly string[];
  excludeBusinessTypes?: readonly string[];
  startTimeMs?: number;
  endTimeMs?: number;
  /** Only bills with an id lower than this (paging backwards). */
  idLessThan?: string;
  /** Only bills with an id greater than this (paging forwards). */
  idGreaterThan?: string;
  /** Only the bill with this id (a margin loanId or repayId), filtered before the limit. */
  billId?: string;
  limit: number;
}

export interface FundingRow {
  recordId: string;
  txId: string;
  uid: string;
  coin: string;
  amount: bigint;
  direction: 'deposit' | 'withdrawal';
  subType: string;
  status: string;
  timeMs: number;
}

export interface OrderQuery {
  uid: string;
  categories?: readonly string[];
  symbol?: string;
  /** Only closed orders (filled, cancelled), as the history endpoints list them. */
  closedOnly?: boolean;
  /** Only this order / clientOid (filtered in the query, before the limit). */
  orderId?: string;
  clientOid?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

export interface FillQuery {
  uid: string;
  categories?: readonly string[];
  symbol?: string;
  orderId?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

/** A public trade (table `trades`), as the recent-trades endpoints list it. */
export interface TradeRow {
  tradeId: string;
  category: string;
  symbol: string;
  price: string;
  quantity: string;
  /** Taker side. */
  side: string;
  timeMs: number;
}

export interface TradeQuery {
  category: string;
  symbol?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

/** A stored candle (table `candles`): prices and volumes are integers scaled by 10^8. */
export interface CandleRow {
  bucketMs: number;
  open: bigint;
  high: bigint;
  low: bigint;
  close: bigint;
  baseVolume: bigint;
  quoteVolume: bigint;
  trades: number;
}

export interface CandleQuery {
  kind: 'market' | 'index' | 'mark' | 'taker_buy';
  category: string;
  symbol: string;
  resolution: '1m' | '1h';
  fromMs: number;
  toMs: number;
  /** Instead of the range: the one latest candle that starts before `fromMs`. */
  before?: boolean;
}

/** A settled funding rate (table `funding_rates`). */
export interface FundingRateRow {
  category: string;
  symbol: string;
  fundingRate: string;
  timeMs: number;
}

/** Settled rates of one perpetual, newest first. */
export interface FundingRateQuery {
  category: string;
  symbol: string;
  offset: number;
  limit: number;
}

/** A closed position's life (table `position_spans`): `size` is what was opened over it. */
export interface PositionSpanRow {
  positionId: string;
  uid: string;
  holdSide: string;
  size: string;
  openedMs: number;
  closedMs: number;
}

/** Positions of one symbol closed at or after `closedFromMs`, oldest close first. */
export interface PositionSpanQuery {
  category: string;
  symbol: string;
  closedFromMs: number;
}

export interface PositionHistoryQuery {
  uid: string;
  categories?: readonly string[];
  symbol?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

export type PositionHistoryRow = PositionClosed['position'];

/** A transfer (table `transfers`); wallet types as the venue names them, `unified` for uta. */
export interface TransferRow {
  transferId: string;
  uid: string;
  kind: 'wallet' | 'sub';
  fromUid: string;
  toUid: string;
  clientOid: string;
  coin: string;
  fromType: string;
  fromSymbol: string;
  toType: string;
  toSymbol: string;
  amount: bigint;
  status: string;
  timeMs: number;
}

export interface TransferQuery {
  kind: 'wallet' | 'sub';
  /** Transfers asked by this account (exactly one of `uid` and `toUid`). */
  uid?: string;
  /** Transfers received by this account. */
  toUid?: string;
  coin?: string;
  fromType?: string;
  clientOid?: string;
  /** Only transfers from or to this account. */
  partyUid?: string;
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

/** A sub-account's deposit or withdrawal as its main account (the broker) sees it. */
export interface BrokerFundingRow {
  recordId: string;
  parentUid: string;
  uid: string;
  txId: string;
  coin: string;
  direction: 'deposit' | 'withdrawal';
  subType: string;
  amount: bigint;
  status: string;
  createdTimeMs: number;
  updatedTimeMs: number;
}

export interface BrokerFundingQuery {
  parentUid: string;
  direction?: 'deposit' | 'withdrawal';
  /** On the creation time. */
  startTimeMs: number;
  endTimeMs: number;
  idLessThan?: string;
  limit: number;
}

export interface KycRow {
  uid: string;
  agentUid: string;
  result: string;
  timeMs: number;
}

export interface KycQuery {
  agentUid: string;
  uid?: string;
  startTimeMs: number;
  endTimeMs: number;
  idLessThan?: string;
  offset: number;
  limit: number;
}

/** A commission record (table `commissions`): the event's fields; money in minor units. */
export type CommissionRow = Omit<CommissionRecorded, 'type' | 'timeMs'>;

export interface CommissionQuery {
  agentUid: string;
  uid?: string;
  coin?: string;
  /** Any of these market symbols (with suffix). */
  symbols?: readonly string[];
  /** Days (00:00 UTC+8) from and to, inclusive. */
  fromDateMs: number;
  toDateMs: number;
  idLessThan?: string;
  limit: number;
}

/** Plan orders (table `plans`), newest first (by plan id). */
export interface PlanQuery {
  uid: string;
  categories?: readonly string[];
  symbol?: string;
  planTypes?: readonly string[];
  statuses?: readonly string[];
  startTimeMs?: number;
  endTimeMs?: number;
  idLessThan?: string;
  limit: number;
}

export interface Store {
  /** The latest snapshot, or null on an empty store. */
  latestSnapshot(): Promise<Snapshot | null>;
  /**
   * Journal records after `seq`, in order, a page at a time (commands only; events are
   * re-derived), each checked: a corrupted or torn record ends the reading with
   * CorruptJournalError once the intact records before it were yielded.
   */
  journalAfter(seq: number): AsyncIterable<readonly { seq: number; command: Command }[]>;
  lastSeq(): Promise<number>;
  /** The journal entries and the projection rows of their events, in one transaction. */
  append(entries: readonly JournalEntry[]): Promise<void>;
  /**
   * Write-behind projection (docs/persistence.md): `append` with the journal rows alone, in
   * the same queue and under the same rules (call order, refused after a failed one until
   * `resume()`). The projector writes the rest with `project`.
   */
  appendJournal?(entries: readonly JournalEntry[]): Promise<void>;
  /**
   * The projection rows of entries already journaled, and the projector's position at the
   * last of them, in one transaction (all or none). Called in sequence order, one at a time.
   */
  project?(entries: readonly JournalEntry[]): Promise<void>;
  /**
   * Hands the projection rows of durable entries to the store's writer at once, so that the
   * projector keeps only their sequence numbers; `projectStaged` then writes them. A store has
   * both or neither; `project` still writes whole entries from their events.
   */
  stage?(entries: readonly JournalEntry[]): void;
  /**
   * The rows `stage` was given for entries `from` to `through`, and the projector's position at
   * `through`, in one transaction. When the store lost staged rows (its writer restarted) it
   * fails with code STAGED_ROWS_MISSING and writes nothing: the projector then stages them
   * again from the journal (runtime/projector.ts).
   */
  projectStaged?(from: number, through: number): Promise<void>;
  /** The projector's stored position: every entry up to it has its projection rows written. */
  projectedSeq?(): Promise<number>;
  /**
   * Entries per `project` call at most: where projections and appends share one writer (the
   * SQLite writer thread), a smaller batch lets the appends queued behind it through sooner.
   */
  readonly projectBatchEntries?: number;
  /**
   * How many appends may be in flight at once (default 1: the sequencer waits for each). A
   * store that allows more applies them in call order, and fails every append called after
   * a failed one, without writing it, until `resume()`: the journal never gets a gap.
   */
  readonly appendsInFlight?: number;
  /**
   * When the sequencer hands over a group smaller than its group size: at once if fewer than
   * this many appends are in flight, else it waits for one to return and grows meanwhile.
   * The default, 1, sends one only when nothing is in flight, so that under a light load the
   * commands arriving during a commit share the next one. More keeps a store that queues
   * appends busy instead of idle while the event loop hears back: the SQLite writer thread
   * takes 2 (one committing, the next queued behind it), PostgreSQL, whose appends are
   * pipelined, all it allows in flight (docs/performance.md).
   */
  readonly partialGroupsBeside?: number;
  /**
   * Writes (appends and snapshots) handed to the store and not yet committed or failed: the
   * requests queued in the SQLite writer thread, the statements sent to PostgreSQL. Read by
   * the metrics (`bourse_store_pending_writes`); a store without a queue of its own omits it.
   */
  readonly pendingWrites?: number;
  /**
   * Bytes the store holds (the journal, snapshots and projections): SQLite, the pages in use
   * (WAL included) times the page size; PostgreSQL, its tables with their indexes. Cheap (no
   * scan): the metrics read it at each scrape (`bourse_store_bytes`).
   */
  sizeBytes?(): Promise<number>;
  /** Lets appends through again after a failed one (the sequencer calls it before it rebuilds). */
  resume?(): Promise<void>;
  /**
   * Saves a snapshot, then lets go of older snapshots and journal records as far as the
   * store's retention policy allows (persistence/retention.ts): never the newest snapshot nor
   * a record at or after it, which recovery needs.
   */
  saveSnapshot(snapshot: Snapshot): Promise<void>;
  /**
   * Replaces everything the store holds (journal, snapshots, every projection) with `entries`,
   * in one transaction: afterwards it holds exactly what appending them to an empty store
   * would write, or, if it fails, exactly what it held before. The operator's reset
   * (src/admin/reset.ts) calls it while no append is in flight; appends after it continue
   * from its last entry.
   */
  replaceAll(entries: readonly JournalEntry[]): Promise<void>;
  bills(query: BillQuery): Promise<BillRow[]>;
  fundingRecords(uid: string, limit: number): Promise<FundingRow[]>;
  /** An order by id or clientOid (the latest with that clientOid), open or closed. */
  order(uid: string, reference: { orderId?: string; clientOid?: string }): Promise<OrderView | null>;
  /** Orders newest first (by id). */
  orders(query: OrderQuery): Promise<OrderView[]>;
  /** Fills newest first (by execId). */
  fills(query: FillQuery): Promise<FillView[]>;
  /** Transfers newest first (by transferId). */
  transfers(query: TransferQuery): Promise<TransferRow[]>;
  /** The sub-accounts' deposit and withdrawal records of a main account, newest first. */
  brokerFunding(query: BrokerFundingQuery): Promise<BrokerFundingRow[]>;
  /** KYC results of an agent's customers, by uid descending. */
  agentKyc(query: KycQuery): Promise<KycRow[]>;
  /** An agent's commission records, newest first (by recordId). */
  commissions(query: CommissionQuery): Promise<CommissionRow[]>;
  /** Public trades newest first (by tradeId). */
  trades(query: TradeQuery): Promise<TradeRow[]>;
  /** Candles in time order (or the one before `fromMs`, see CandleQuery.before). */
  candles(query: CandleQuery): Promise<CandleRow[]>;
  /** Settled funding rates of a perpetual, newest first. */
  fundingRates(query: FundingRateQuery): Promise<FundingRateRow[]>;
  /** The lives of a symbol's positions closed since a time, by close time. */
  positionSpans(query: PositionSpanQuery): Promise<PositionSpanRow[]>;
  /** Closed positions, newest first. */
  positionHistory(query: PositionHistoryQuery): Promise<PositionHistoryRow[]>;
  /** Plan orders, newest first (by plan id). */
  plans(query: PlanQuery): Promise<PlanView[]>;
  /** Deposits or withdrawals of an account with their routes, newest first (wallet-store.ts). */
  walletRecords(query: WalletRecordQuery): Promise<WalletRecordRow[]>;
  /** Convert trades of an account, newest first. */
  converts(query: ConvertQuery): Promise<ConvertRow[]>;
  /** Spot margin liquidations of an account's wallets, newest first. */
  marginLiquidations(query: MarginLiquidationQuery): Promise<MarginLiquidationRow[]>;
  /** A plan by id or clientOid (the latest with that clientOid), live or ended. */
  plan(uid: string, reference: { planId?: string; clientOid?: string }): Promise<PlanView | null>;
  close(): Promise<void>;
}
