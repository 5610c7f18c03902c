/**
 * The store port: journal, snapshots and projections. SQLite implements it today; every
 * implementation passes test/contracts/store.contract.ts.
 *
 * `append` is the durable step: the journal entries and the projection rows of their events
 * are written in one transaction, and the promise resolves only once that is on disk.
 */
import type { Command } from '../domain/commands.ts';
import type { EngineEvent, FillView } from '../domain/events.ts';
import type { OrderView } from '../domain/order-view.ts';

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
  timeMs: number;
}

export interface BillQuery {
  uid: string;
  /** Wallets to include (a prefix match is not used: exact wallet ids). */
  wallets: readonly string[];
  coin?: string;
  businessTypes?: readonly string[];
  excludeBusinessTypes?: readonly string[];
  startTimeMs?: number;
  endTimeMs?: number;
  /** Only bills with an id lower than this (paging backwards). */
  idLessThan?: string;
  /** Only bills with an id greater than this (paging forwards). */
  idGreaterThan?: string;
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

export interface Store {
  /** The latest snapshot, or null on an empty store. */
  latestSnapshot(): Promise<Snapshot | null>;
  /** Journal entries after `seq`, in order (commands only; events are re-derived). */
  journalAfter(seq: number): AsyncIterable<{ seq: number; command: Command }>;
  lastSeq(): Promise<number>;
  append(entries: readonly JournalEntry[]): Promise<void>;
  saveSnapshot(snapshot: Snapshot): Promise<void>;
  bills(query: BillQuery): Promise<BillRow[]>;
  fundingRecords(uid: string, limit: number): Promise<FundingRow[]>;
  /** An order by id or clientOid (the latest with that clientOid), open or closed. */
  order(uid: string, reference: { orderId?: string; clientOid?: string }): Promise<OrderView | null>;
  /** Orders newest first (by id). */
  orders(query: OrderQuery): Promise<OrderView[]>;
  /** Fills newest first (by execId). */
  fills(query: FillQuery): Promise<FillView[]>;
  close(): Promise<void>;
}
