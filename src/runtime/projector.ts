/**
 * The projector: writes the read models (orders, fills, bills, trades, candles, …) behind the
 * journal. The sequencer acknowledges a command once its journal entry is durable and hands
 * the entry, with its events, to the projector, which writes the projection rows of every
 * entry it holds in one transaction together with its position (the last projected sequence
 * number), then the next batch: under load each batch takes everything that queued during the
 * one before, so batches grow with the lag and the per-transaction cost shrinks.
 *
 * Nothing here is durable by itself: what the projector holds is in the journal, and a
 * restart projects the journal after the stored position again (server.ts, recovery.ts). A
 * failed batch is retried, with backoff, until it is written; nothing after it is written
 * before it, so the projected tables never have a hole and the position never passes one. A
 * batch that failed on the way back (committed, then the connection cut) is found by the
 * stored position before the retry and not written again.
 * Reads wait on `reached` (projected-reads.ts).
 *
 * A store that stages rows (`Store.stage` and `projectStaged`: the SQLite writer thread) is given each entry's
 * rows in the turn after it is handed over, and the queue keeps only the sequence numbers; if
 * the store lost staged rows before their write, the entries after the position are read back
 * from the journal (`reload`) and staged again (docs/persistence.md).
 */
import type { JournalEntry, Store } from '../ports/store.ts';

export interface ProjectorOptions {
  /** Entries queued and not yet written above which acknowledgements wait (`room`). */
  maxLagEntries?: number;
  /** Entries per transaction at most (a long backlog is written in several). */
  maxBatchEntries?: number;
  /**
   * How long entries may gather before a batch smaller than `maxBatchEntries` is written
   * (ms; 0 writes each batch at once). A read waiting for the projector, a snapshot, a full
   * batch or a lag past `maxLagEntries` writes at once whatever this says.
   */
  gatherMs?: number;
  /** Entries queued at which a gathering batch is written without waiting out `gatherMs`. */
  gatherEntries?: number;
  /** First and longest wait between attempts at a failed batch. */
  retryMs?: { first: number; longest: number };
  onError?: (error: unknown) => void;
  /** Milliseconds now (the lag's age); injectable for tests. */
  nowMs?: () => number;
  /**
   * The entries after a sequence number, with their events, as the journal holds them now
   * (recovery.ts): with a store that stages rows (`Store.stage`), what is staged again when the
   * store lost the staged rows of entries not yet written.
   */
  reload?: (afterSeq: number) => Promise<readonly JournalEntry[]>;
}

/** A store's refusal of a write whose staged rows it no longer holds (Store.stage). */
function isStagedRowsMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'STAGED_ROWS_MISSING';
}

interface Waiter {
  seq: number;
  resolve: (reached: boolean) => void;
  /** Resolve false at a failed write instead of waiting through the retries. */
  untilFailure: boolean;
}

interface IdleWaiter {
  resolve: () => void;
  /** Resolve at a failed write too. */
  untilFailure: boolean;
}

/** Releases the waiters that wait only until a failure, in order; returns the others. */
function releaseUntilFailure<T extends { untilFailure: boolean }>(
  waiters: readonly T[],
  release: (waiter: T) => void,
): T[] {
  const still: T[] = [];
  for (const waiter of waiters) {
    if (waiter.untilFailure) release(waiter);
    else still.push(waiter);
  }
  return still;
}

/**
 * Under a closed loop the queue sits at this bound, and every entry in it (command, events,
 * views) outlives a scavenge and is promoted: at 2,048 entries (a second of crossing orders)
 * the main thread paused about 8 µs per order for collection, at 128 about 4, and 128 served
 * more orders per CPU µs with a lower paced p99 (docs/performance.md, 2026-11-26c).
 */
export const DEFAULT_MAX_LAG_ENTRIES = 128;
const DEFAULT_MAX_BATCH_ENTRIES = 256;
/**
 * The server's gathering (BOURSE_PROJECTION_GATHER_MS, and the entries that cut it short).
 * Under a paced load the projector wrote batches of one to five entries, and SQLite's writer
 * and checkpointer spent about twice the CPU per order they spend on the closed loop's full
 * batches: a transaction writes every page it dirties to the WAL, however few rows it changed.
 * Gathering up to 30 ms or 16 entries took a paced crossing load's CPU per order down by about
 * a fifth, its p99 unchanged (docs/performance.md, 2026-11-26g). The class's own default is
 * not to gather.
 */
export const DEFAULT_GATHER_MS = 30;
export const DEFAULT_GATHER_ENTRIES = 16;

export class Projector {
  private queue: JournalEntry[] = [];
  private writing = false;
  private failures = 0;
  private stopped = false;
  private waiters: Waiter[] = [];
  private roomWaiters: (() => void)[] = [];
  private idleWaiters: IdleWaiter[] = [];
  private readonly maxLag: number;
  private readonly maxBatch: number;
  private readonly gatherMs: number;
  private readonly gatherEntries: number;
  /** Writes the gathered entries once the oldest has waited `gatherMs`. */
  private gatherTimer: ReturnType<typeof setTimeout> | undefined;
  /** The last sequence number handed over (projected or queued). */
  private queuedSeq: number;
  /**
   * When each hand-over not yet written came (its last sequence number and the time): one
   * mark per `enqueue` call, that is per group commit, not per entry. The oldest mark past
   * the position dates the lag (`lagSeconds`).
   */
  private handedAt: { seq: number; atMs: number }[] = [];
  private readonly nowMs: () => number;

  /**
   * With a store that stages rows: entries handed over and not yet staged (staged in a later
   * turn, after the answers of their append went out); the queue holds only their numbers.
   */
  private toStage: JournalEntry[] = [];
  private stageScheduled = false;
  /** Staging again from the journal: entries handed over meanwhile wait here. */
  private restaging: JournalEntry[] | null = null;
  /** The last sequence number of each group staged and not yet written, in order. */
  private stagedEnds: number[] = [];

  constructor(
    private readonly store: Pick<Required<Store>, 'project'> &
      Pick<Store, 'projectedSeq' | 'stage' | 'projectStaged'>,
    /** The stored position: every entry up to it is projected. */
    private projected: number,
    private readonly options: ProjectorOptions = {},
  ) {
    this.queuedSeq = projected;
    this.maxLag = Math.max(1, options.maxLagEntries ?? DEFAULT_MAX_LAG_ENTRIES);
    this.maxBatch = Math.max(1, options.maxBatchEntries ?? DEFAULT_MAX_BATCH_ENTRIES);
    this.gatherMs = Math.max(0, options.gatherMs ?? 0);
    this.gatherEntries = Math.min(
      this.maxBatch,
      Math.max(1, options.gatherEntries ?? DEFAULT_GATHER_ENTRIES),
    );
    this.nowMs = options.nowMs ?? Date.now;
  }

  /** Every entry up to this sequence number has its rows written. */
  get position(): number {
    return this.projected;
  }

  /** The last sequence number handed over. */
  get lastQueued(): number {
    return this.queuedSeq;
  }

  /** Entries handed over and not yet written. */
  get lag(): number {
    return this.queuedSeq - this.projected;
  }

  /** Seconds since the oldest entry not yet written was handed over (0 when none is). */
  lagSeconds(): number {
    const oldest = this.handedAt[0];
    return oldest === undefined ? 0 : Math.max(0, this.nowMs() - oldest.atMs) / 1000;
  }

  /**
   * Hands over durable entries, in sequence order. An entry at or before the last handed over
   * is skipped (a rebuild may read back what the projector already holds); a gap is a bug.
   */
  enqueue(entries: readonly JournalEntry[]): void {
    if (this.restaging !== null) {
      for (const entry of entries) this.restaging.push(entry);
      return;
    }
    const before = this.queuedSeq;
    for (const entry of entries) {
      if (entry.seq <= this.queuedSeq) continue;
      if (entry.seq !== this.queuedSeq + 1)
        throw new Error(`projector gap: expected ${this.queuedSeq + 1}, handed ${entry.seq}`);
      if (this.staging) {
        this.toStage.push(entry);
        // The number alone (nothing of the entry kept alive): `projectStaged` writes what
        // `stage` gave the store.
        this.queue.push({ seq: entry.seq } as JournalEntry);
      } else this.queue.push(entry);
      this.queuedSeq = entry.seq;
    }
    if (this.toStage.length > 0 && !this.stageScheduled) {
      this.stageScheduled = true;
      setImmediate(() => this.stageNow());
    }
    if (this.queuedSeq > before) this.handedAt.push({ seq: this.queuedSeq, atMs: this.nowMs() });
    this.schedule();
  }

  /**
   * Starts a write now if one is due (dueNow), else makes sure one starts when the oldest
   * entry queued has gathered for `gatherMs`. Nothing while a write runs: its loop decides.
   */
  private schedule(): void {
    // Stopped, what is queued stays unwritten (the next start projects it from the journal).
    if (this.writing || this.queue.length === 0 || this.stopped) return;
    if (this.dueNow()) {
      this.clearGatherTimer();
      this.startWriting();
      return;
    }
    if (this.gatherTimer !== undefined) return;
    this.gatherTimer = setTimeout(
      () => {
        this.gatherTimer = undefined;
        this.schedule();
      },
      Math.max(0, this.gatherMs - this.oldestWaitedMs()),
    );
    // A server stopping writes what it holds through idle(), not through this timer.
    this.gatherTimer.unref?.();
  }

  private clearGatherTimer(): void {
    if (this.gatherTimer === undefined) return;
    clearTimeout(this.gatherTimer);
    this.gatherTimer = undefined;
  }

  /**
   * Whether what is queued should be written now rather than gather more: always without a
   * gathering time; else when a batch is full, someone waits for the projector (a read, a
   * snapshot, acknowledgements held back by the lag) or the oldest entry has gathered long enough.
   */
  private dueNow(): boolean {
    if (this.gatherMs === 0) return true;
    if (this.queue.length >= this.gatherEntries) return true;
    if (this.waiters.length > 0 || this.idleWaiters.length > 0 || this.roomWaiters.length > 0) return true;
    return this.oldestWaitedMs() >= this.gatherMs;
  }

  /** How long the oldest entry not yet written has waited (0 when none has). */
  private oldestWaitedMs(): number {
    const oldest = this.handedAt[0];
    return oldest === undefined ? 0 : this.nowMs() - oldest.atMs;
  }

  /**
   * The write starts in a later turn, not in the caller's: entries come from the sequencer as
   * their append becomes durable, and building a batch's rows and handing them to the store
   * (several ms for a large batch) would otherwise run before those answers go out and before
   * the next append is handed to the store, which then found the projection's transaction
   * ahead of it on SQLite's one writer thread.
   */
  private startWriting(): void {
    this.writing = true;
    setImmediate(() => void this.write());
  }

  /** Whether the store stages rows (Store.stage and Store.projectStaged). */
  private get staging(): boolean {
    return this.store.stage !== undefined && this.store.projectStaged !== undefined;
  }

  private stageNow(): void {
    this.stageScheduled = false;
    if (this.toStage.length === 0) return;
    const entries = this.toStage;
    this.toStage = [];
    this.store.stage?.(entries);
    this.stagedEnds.push((entries[entries.length - 1] as JournalEntry).seq);
  }

  /**
   * How many queued entries the next batch takes: `maxBatch` at most, except that with a
   * staging store a batch ends where a staged group ends (the store writes groups whole), and
   * takes at least the first group, however long.
   */
  private batchLength(): number {
    if (!this.staging) return Math.min(this.queue.length, this.maxBatch);
    const first = (this.queue[0] as JournalEntry).seq;
    let written = 0;
    while (written < this.stagedEnds.length && (this.stagedEnds[written] as number) < first) written += 1;
    if (written > 0) this.stagedEnds.splice(0, written);
    const limit = first + this.maxBatch - 1;
    let end = this.stagedEnds[0] ?? first + this.queue.length - 1;
    for (const groupEnd of this.stagedEnds) {
      if (groupEnd > limit) break;
      end = groupEnd;
    }
    return Math.min(this.queue.length, end - first + 1);
  }

  /**
   * The store lost the staged rows of entries not yet written (its writer restarted): every
   * entry after the position is read back from the journal with its events and staged again,
   * then those handed over meanwhile. When the journal cannot be read, the next failed write
   * tries again.
   */
  private async restage(): Promise<void> {
    const reload = this.options.reload;
    if (!reload) return;
    const meanwhile: JournalEntry[] = [];
    this.restaging = meanwhile;
    let reloaded: readonly JournalEntry[] | null = null;
    try {
      reloaded = await reload(this.projected);
    } catch (error) {
      this.options.onError?.(error);
    }
    this.restaging = null;
    if (reloaded !== null) {
      this.queue = [];
      this.toStage = [];
      this.stagedEnds = [];
      this.handedAt = [];
      this.queuedSeq = this.projected;
      this.enqueue(reloaded);
    }
    // Entries the reload read are skipped; those after it follow on.
    this.enqueue(meanwhile);
    this.stageNow();
  }

  /** Whether the last attempt at a batch failed (it is being retried). */
  get failing(): boolean {
    return this.failures > 0;
  }

  /**
   * Resolves true once every entry up to `seq` is projected, false if `timeoutMs` passes first
   * or, with `untilFailure`, at the next failed write (at once if the last one failed): a
   * snapshot gives up rather than wait through a store's outage, a read waits through a blip.
   */
  reached(seq: number, timeoutMs: number, untilFailure = false): Promise<boolean> {
    if (this.projected >= seq) return Promise.resolve(true);
    if (untilFailure && this.failing) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = { seq, resolve, untilFailure };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(false);
      }, timeoutMs);
      waiter.resolve = (reached) => {
        clearTimeout(timer);
        resolve(reached);
      };
      this.waiters.push(waiter);
      this.schedule();
    });
  }

  /** Null while the lag is within bounds, else a promise that resolves once it is back under half. */
  room(): Promise<void> | null {
    if (this.lag <= this.maxLag || this.stopped) return null;
    return new Promise((resolve) => {
      this.roomWaiters.push(resolve);
      this.schedule();
    });
  }

  /**
   * Resolves once everything handed over is written (or the projector is stopped), or, with
   * `untilFailure`, at the next failed write (at once if the last one failed).
   */
  idle(untilFailure = false): Promise<void> {
    if ((this.queue.length === 0 && !this.writing) || this.stopped) return Promise.resolve();
    if (untilFailure && this.failing) return Promise.resolve();
    return new Promise((resolve) => {
      this.idleWaiters.push({ resolve, untilFailure });
      this.schedule();
    });
  }

  /**
   * Starts over at `seq` (the operator's reset replaced the store's contents, its projections
   * and position included): called while idle, nothing queued is kept.
   */
  reset(seq: number): void {
    this.clearGatherTimer();
    this.queue = [];
    this.toStage = [];
    this.stagedEnds = [];
    this.handedAt = [];
    this.projected = seq;
    this.queuedSeq = seq;
    this.settle();
  }

  /** Stops retrying (server shutdown): what is not written is projected again on the next start. */
  stop(): void {
    this.stopped = true;
    this.clearGatherTimer();
    this.settle();
  }

  private async write(): Promise<void> {
    this.writing = true;
    // The first batch is due (schedule started this write); a failed one is retried at once
    // after its backoff; any other waits for dueNow.
    let due = true;
    while (this.queue.length > 0 && !this.stopped && (due || this.dueNow())) {
      due = false;
      // The batch leaves the queue; entries handed over meanwhile form the next one.
      this.stageNow();
      const length = this.batchLength();
      const batch = this.queue.length <= length ? this.queue : this.queue.slice(0, length);
      this.queue = batch === this.queue ? [] : this.queue.slice(batch.length);
      try {
        if (this.staging)
          await this.store.projectStaged?.(
            (batch[0] as JournalEntry).seq,
            (batch[batch.length - 1] as JournalEntry).seq,
          );
        else await this.store.project(batch);
      } catch (error) {
        // Nothing of the batch was written (one transaction): it goes back in front, and is
        // tried again later; nothing after it is written first.
        this.queue = batch.concat(this.queue);
        this.options.onError?.(error);
        const { first, longest } = this.options.retryMs ?? { first: 50, longest: 2_000 };
        const waitMs = Math.min(longest, first * 2 ** Math.min(this.failures, 16));
        this.failures += 1;
        this.failed();
        await new Promise((resolve) => setTimeout(resolve, waitMs));
        await this.readStoredPosition();
        if (isStagedRowsMissing(error)) await this.restage();
        due = true;
        continue;
      }
      this.failures = 0;
      this.projected = (batch[batch.length - 1] as JournalEntry).seq;
      this.settle();
    }
    this.writing = false;
    this.settle();
    this.schedule();
  }

  /**
   * After a failed batch: the store's own position, which is ahead of ours when the batch in
   * fact committed (the connection was cut after the commit, before its answer). Entries up
   * to it are dropped from the queue, so they are not written twice (their rows' keys would
   * collide and the batch fail forever). A store that cannot say keeps ours.
   */
  private async readStoredPosition(): Promise<void> {
    if (!this.store.projectedSeq) return;
    let stored: number;
    try {
      stored = await this.store.projectedSeq();
    } catch {
      return;
    }
    if (stored <= this.projected) return;
    this.projected = stored;
    this.queue = this.queue.filter((entry) => entry.seq > stored);
    this.settle();
  }

  /** Marks whose entries are all written go (a few per batch: one per group commit). */
  private dropWrittenMarks(): void {
    let written = 0;
    while (
      written < this.handedAt.length &&
      (this.handedAt[written] as { seq: number }).seq <= this.projected
    )
      written += 1;
    if (written > 0) this.handedAt.splice(0, written);
  }

  /** A write failed: those who wait only until a failure stop waiting. */
  private failed(): void {
    this.waiters = releaseUntilFailure(this.waiters, (waiter) => waiter.resolve(false));
    this.idleWaiters = releaseUntilFailure(this.idleWaiters, (waiter) => waiter.resolve());
  }

  private settle(): void {
    this.dropWrittenMarks();
    if (this.waiters.length > 0) {
      const still: Waiter[] = [];
      for (const waiter of this.waiters) {
        if (this.projected >= waiter.seq) waiter.resolve(true);
        else if (this.stopped) waiter.resolve(false);
        else still.push(waiter);
      }
      this.waiters = still;
    }
    if (this.roomWaiters.length > 0 && (this.lag <= this.maxLag / 2 || this.stopped)) {
      for (const resolve of this.roomWaiters.splice(0)) resolve();
    }
    if (this.idleWaiters.length > 0 && ((this.queue.length === 0 && !this.writing) || this.stopped)) {
      for (const waiter of this.idleWaiters.splice(0)) waiter.resolve();
    }
  }
}
