/**
 * The sequencer: the single writer. It runs each command through the engine at once (so
 * later commands see earlier ones), and acknowledges nothing until the command is durable:
 * the commands of one event-loop turn share one store append (group commit). Every command
 * is journaled, failed ones included: a failure changes no business state, but the engine
 * clock and clock jobs still advance with it, and replay must see exactly the stream the live
 * engine saw. Answers wait for their append, so no answer overtakes the durability of what
 * came before it.
 *
 * Appends go to the store in order. Most stores take one at a time: commands submitted while
 * an append is in flight (a PostgreSQL round trip) form the next batch, written as soon as the
 * first returns. A store that queues appends itself (`appendsInFlight` > 1: the SQLite writer
 * thread, PostgreSQL's pipelined statements) is handed each full group of `groupCommands`
 * commands as soon as it forms, even in the middle of a turn, so that its commit overlaps the
 * engine's work on the next group; a partial group goes at the end of a turn when fewer
 * appends than the store's `partialGroupsBeside` are in flight (by default only when none
 * is), and otherwise grows until one returns (one commit shared by what arrived meanwhile).
 * Such a store refuses every append after a failed one, so the journal never gets a gap.
 *
 * If an append fails, its answers and those of every command queued behind it (which ran on
 * top of it) are STORE_UNAVAILABLE, the venue's "outcome unknown, query by clientOid". The
 * engine is then rebuilt from the store (latest snapshot plus journal), so nothing
 * unacknowledged stays applied in memory; until that succeeds, new commands are answered
 * STORE_UNAVAILABLE at once, and the rebuild is retried with backoff, so service resumes by
 * itself when the store comes back. If the failed append was in fact committed (a connection
 * cut during the commit), the rebuild reads it back; a commit that becomes visible only after
 * the rebuild makes the next append collide on the journal's key, which fails and rebuilds
 * again, so memory always converges on the store.
 *
 * A command that throws inside the engine (a bug) is not journaled and its whole step, clock
 * jobs included, is rolled back: the engine is rebuilt from the store once what came before
 * it is durable (rollback.ts says how, and what callers see meanwhile).
 *
 * With a projector (runtime/projector.ts, the server's default) an append writes the journal
 * entries alone; once durable they go to the projector, which writes the read models behind
 * them, and only then are they answered (history reads wait for it: projected-reads.ts). A
 * snapshot is saved only once the projector has passed it, and answers wait while it is
 * further behind than its bound.
 *
 * `replace` (the operator's reset, src/admin/reset.ts) swaps in a new engine and the store's
 * whole contents at once: new commands are refused (SERVICE_RESETTING) while it runs, the
 * store replaces everything in one transaction, and memory follows what the store then holds.
 */
import type { Command } from '../domain/commands.ts';
import { fail, ok, type Outcome } from '../domain/result-code.ts';
import type { Exchange } from '../engine/exchange.ts';
import { stateHash } from '../engine/state-hash.ts';
import { encode } from '../persistence/codec.ts';
import type { JournalEntry, Snapshot, Store } from '../ports/store.ts';
import { recover, type Recovered } from './recovery.ts';
import type { Projector } from './projector.ts';
import { Rollback } from './rollback.ts';

interface Waiting {
  outcome: Outcome<unknown>;
  resolve: (outcome: Outcome<unknown>) => void;
}

export interface SequencerOptions {
  /** Take a snapshot after this many journal entries (0: never automatically). */
  snapshotEvery: number;
  onStoreError?: (error: unknown) => void;
  /** Called when the engine was rebuilt from the store after a failure. */
  onRecovered?: (seq: number) => void;
  /** First and longest wait between rebuild attempts while the store is down. */
  retryMs?: { first: number; longest: number };
  /** With a store that queues appends: commands per group handed over mid-turn (default 8). */
  groupCommands?: number;
  /** Called once for a command that threw inside the engine (its step is rolled back). */
  onEngineError?: (error: unknown, command: Command) => void;
  /** Called as each append settles: its commands, the store's time for it, and whether it succeeded (metrics). */
  onAppended?: (commands: number, durationMs: number, ok: boolean) => void;
  /**
   * Write-behind projection (runtime/projector.ts): appends write the journal alone
   * (`Store.appendJournal`) and each durable batch goes to the projector before its answers.
   * Without it, each append writes the projection rows too.
   */
  projector?: Projector;
}

/**
 * How long a snapshot waits for the projector to pass it before it is given up (retried
 * later); a failed projector write gives it up at once.
 */
const SNAPSHOT_PROJECTOR_WAIT_MS = 60_000;
/** How long `drain` waits for the projector to write what it holds. */
const DRAIN_PROJECTOR_WAIT_MS = 10_000;

export class Sequencer {
  private entries: JournalEntry[] = [];
  private waiting: Waiting[] = [];
  private flushScheduled = false;
  /** Appends handed to the store and not yet settled, and the commands they carry. */
  private inFlight = 0;
  private inFlightCommands = 0;
  private readonly maxInFlight: number;
  private readonly groupCommands: number;
  /** A partial group goes when fewer appends than this are in flight. */
  private readonly partialBeside: number;
  private recovering = false;
  /** `replace` is running: new commands are refused. */
  private replacing = false;
  /** An append failed: in-flight ones settle (failing), then the engine is rebuilt. */
  private failed = false;
  private sinceSnapshot = 0;
  private snapshotting: Promise<void> | null = null;
  private stopped = false;
  /** A command threw: its step is rolled back once everything before it is durable. */
  private rollback: Rollback | null = null;
  private readonly durableListeners: ((entries: readonly JournalEntry[]) => void)[] = [];
  private readonly replacedListeners: ((entries: readonly JournalEntry[]) => void)[] = [];
  private readonly projector: Projector | null;
  /** The durable step: the journal alone when a projector writes the rest. */
  private readonly appendToStore: (entries: readonly JournalEntry[]) => Promise<void>;

  constructor(
    private current: Exchange,
    private seq: number,
    private readonly store: Store,
    private readonly options: SequencerOptions,
  ) {
    this.maxInFlight = Math.max(1, store.appendsInFlight ?? 1);
    this.groupCommands = Math.max(1, options.groupCommands ?? 8);
    this.partialBeside = Math.min(this.maxInFlight, Math.max(1, store.partialGroupsBeside ?? 1));
    const projector = options.projector ?? null;
    if (projector && !store.appendJournal) throw new Error('a projector needs a store with appendJournal');
    this.projector = projector;
    // Looked up on each call: a store's method replaced later (fault injection) is the one used.
    this.appendToStore = projector
      ? (entries) => (store.appendJournal ?? store.append).call(store, entries)
      : (entries) => store.append(entries);
  }

  get exchange(): Exchange {
    return this.current;
  }

  /** The projector writing the read models behind the journal, or null when they are inline. */
  get projection(): Projector | null {
    return this.projector;
  }

  /**
   * Calls `listener` with each batch of entries once it is durable, in sequence order, before
   * the batch's answers resolve (so a pushed event never trails its HTTP answer). Used by the
   * WebSocket push (src/api/ws). Returns a function that removes the listener.
   */
  onDurable(listener: (entries: readonly JournalEntry[]) => void): () => void {
    this.durableListeners.push(listener);
    return () => {
      const index = this.durableListeners.indexOf(listener);
      if (index >= 0) this.durableListeners.splice(index, 1);
    };
  }

  /**
   * Calls `listener` with the whole new journal each time `replace` swaps in one over a
   * non-empty journal (the operator's reset), once the store committed it: a cluster leader
   * publishes it to the entry stream, so followers learn the journal started again.
   */
  onReplaced(listener: (entries: readonly JournalEntry[]) => void): void {
    this.replacedListeners.push(listener);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /**
   * A follower's sequencer (src/cluster: an edge), which never submits: `entries` were
   * committed by the leader and are already applied to `exchange`, which becomes the engine
   * at `seq`; the durable listeners (the WebSocket push) hear of them as of this process's own.
   */
  followed(exchange: Exchange, seq: number, entries: readonly JournalEntry[]): void {
    this.current = exchange;
    this.seq = seq;
    if (entries.length === 0) return;
    this.notifyDurable(entries);
  }

  private notifyDurable(entries: readonly JournalEntry[]): void {
    for (const listener of this.durableListeners) {
      try {
        listener(entries);
      } catch (error) {
        // A listener's fault must never stall the single writer.
        this.options.onStoreError?.(error);
      }
    }
  }

  /** Commands run and not yet durable: waiting for the next append, or in an append in flight. */
  get pendingCommands(): number {
    return this.entries.length + this.inFlightCommands;
  }

  /** Appends handed to the store and not yet settled. */
  get appendsInFlight(): number {
    return this.inFlight;
  }

  /** True while the engine is being rebuilt after a store failure (commands are refused). */
  get unavailable(): boolean {
    return this.recovering;
  }

  submit<T>(command: Command): Promise<Outcome<T>> {
    if (this.recovering) return Promise.resolve(fail('STORE_UNAVAILABLE'));
    if (this.replacing) return Promise.resolve(fail('SERVICE_RESETTING'));
    if (this.rollback) return this.rollback.defer<T>(command);
    let executed: ReturnType<Exchange['execute']>;
    try {
      executed = this.current.execute(command);
    } catch (error) {
      return this.rollBack<T>(command, error);
    }
    const { outcome, events } = executed;
    this.seq += 1;
    this.entries.push({ seq: this.seq, command, events });
    const promise = new Promise<Outcome<T>>((resolve) => {
      this.waiting.push({ outcome, resolve: resolve as (outcome: Outcome<unknown>) => void });
    });
    // A store that queues appends gets each full group as it forms; otherwise at the turn's end.
    if (this.maxInFlight > 1 && this.entries.length >= this.groupCommands && this.mayFlush())
      void this.flush();
    else this.scheduleFlush();
    return promise;
  }

  /** Starts rolling back the step of `command`, which threw; answers it SYSTEM_ERROR once done. */
  private rollBack<T>(command: Command, error: unknown): Promise<Outcome<T>> {
    this.options.onEngineError?.(error, command);
    const rollback = new Rollback();
    this.rollback = rollback;
    if (this.entries.length > 0) this.scheduleFlush();
    else void this.restoreIfIdle();
    return rollback.thrown as Promise<Outcome<T>>;
  }

  /** Once nothing is queued or in flight: memory becomes the store's state, then the waiting run. */
  private async restoreIfIdle(): Promise<void> {
    const rollback = this.rollback;
    if (!rollback || rollback.restoring || this.inFlight > 0 || this.entries.length > 0) return;
    const recovered = await rollback.restore(this.store, this.options.onStoreError);
    this.rollback = null;
    if (recovered) {
      this.adopt(recovered);
      rollback.finish((command) => this.submit(command));
    } else {
      // The store cannot be read back: as after a failed append, refuse until it can.
      this.recovering = true;
      await this.rebuild();
    }
  }

  private adopt(recovered: Recovered): void {
    this.install(recovered.exchange, recovered.seq, recovered.replayed);
    // An append that looked failed may have committed: its entries reach the projector here.
    this.projector?.enqueue(recovered.unprojected);
  }

  /** Recovery from the store, with the events of what the projector does not hold. */
  private recoverFromStore(): Promise<Recovered> {
    const projector = this.projector;
    return recover(this.store, projector ? { eventsAfter: projector.lastQueued } : {});
  }

  /**
   * Whether the queued commands may go now: any group while fewer appends than the store's
   * `partialGroupsBeside` (default 1: none) are in flight; beside more, only a full group (so
   * commits overlap the engine's work under load), while a partial one waits for them and
   * grows (so a light load still shares one commit and fsync among the commands that arrive
   * during one, instead of one each).
   */
  private mayFlush(): boolean {
    if (this.entries.length === 0 || this.failed) return false;
    if (this.inFlight < this.partialBeside) return true;
    return this.inFlight < this.maxInFlight && this.entries.length >= this.groupCommands;
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (!this.mayFlush()) return;
    const entries = this.entries;
    const waiting = this.waiting;
    this.entries = [];
    this.waiting = [];
    this.inFlight += 1;
    this.inFlightCommands += entries.length;
    // Memory now equals the store plus the batches in flight plus exactly this one: the state
    // after this batch, to be saved as a snapshot once the batch is durable.
    this.sinceSnapshot += entries.length;
    const snapshot = this.snapshotDue() ? this.capture() : null;
    const { onAppended } = this.options;
    const startedMs = onAppended ? performance.now() : 0;
    try {
      await this.appendToStore(entries);
    } catch (error) {
      this.inFlight -= 1;
      this.inFlightCommands -= entries.length;
      onAppended?.(entries.length, performance.now() - startedMs, false);
      for (const item of waiting) item.resolve(fail('STORE_UNAVAILABLE'));
      if (!this.failed) {
        // The first failure: what queued behind it ran on top of it and fails too; appends
        // still in flight fail as the store refuses them, and the rebuild waits for them.
        this.failed = true;
        this.recovering = true;
        this.options.onStoreError?.(error);
        const queued = this.waiting;
        this.entries = [];
        this.waiting = [];
        for (const item of queued) item.resolve(fail('STORE_UNAVAILABLE'));
        // The rebuild below discards the thrown step too; what waited for it is refused.
        this.rollback?.refuse();
        this.rollback = null;
      }
      if (this.inFlight === 0) await this.rebuild();
      return;
    }
    this.inFlight -= 1;
    this.inFlightCommands -= entries.length;
    onAppended?.(entries.length, performance.now() - startedMs, true);
    // The next append is scheduled before the projector's write (which starts in a later turn
    // too), so the store gets the journal first: answers need only it.
    if (this.entries.length > 0) this.scheduleFlush();
    // Durable: the projector writes its rows behind (reads wait for it, projected-reads.ts).
    this.projector?.enqueue(entries);
    this.notifyDurable(entries);
    // Backpressure: while the projector is too far behind, answers wait for it to catch up,
    // so its lag (and the memory it holds) stays bounded.
    const room = this.projector?.room();
    if (room) await room;
    for (const item of waiting) item.resolve(item.outcome);
    if (this.entries.length > 0) this.scheduleFlush();
    else if (this.rollback) await this.restoreIfIdle();
    if (snapshot) await this.save(snapshot);
  }

  private snapshotDue(): boolean {
    // While a step is being rolled back, memory holds what the journal does not: no snapshot.
    return (
      this.options.snapshotEvery > 0 &&
      this.sinceSnapshot >= this.options.snapshotEvery &&
      !this.snapshotting &&
      !this.rollback
    );
  }

  private capture(): Snapshot {
    this.sinceSnapshot = 0;
    return { seq: this.seq, timeMs: this.current.state.nowMs, body: encode(this.current.state) };
  }

  private async save(snapshot: Snapshot): Promise<void> {
    const saving = this.saveProjected(snapshot).catch((error: unknown) => this.options.onStoreError?.(error));
    this.snapshotting = saving;
    await saving;
    this.snapshotting = null;
  }

  /**
   * A snapshot is saved only once the projector has written every entry up to it: a restart
   * projects the journal after the projector's position, which must not be before the
   * snapshot it starts from (recovery.ts).
   */
  private async saveProjected(snapshot: Snapshot): Promise<void> {
    const projector = this.projector;
    if (projector && !(await projector.reached(snapshot.seq, SNAPSHOT_PROJECTOR_WAIT_MS, true))) {
      this.sinceSnapshot = Math.max(this.sinceSnapshot, this.options.snapshotEvery);
      throw new Error(`snapshot at ${snapshot.seq} given up: the projector is at ${projector.position}`);
    }
    await this.store.saveSnapshot(snapshot);
  }

  /** Writes a snapshot of the current state once everything submitted so far is durable. */
  async snapshot(): Promise<void> {
    for (;;) {
      await this.drain();
      if (this.recovering) return;
      if (this.snapshotting) await this.snapshotting;
      // Only when memory equals the store: nothing queued, nothing in flight.
      else if (this.entries.length === 0 && this.inFlight === 0) break;
    }
    await this.save(this.capture());
  }

  /** Stops retrying a rebuild (server shutdown). */
  stop(): void {
    this.stopped = true;
  }

  /** Waits until everything submitted so far is durable (or answered as failed), snapshots included. */
  async drain(): Promise<void> {
    while (
      this.flushScheduled ||
      this.inFlight > 0 ||
      this.entries.length > 0 ||
      this.snapshotting ||
      this.rollback
    ) {
      if (this.snapshotting) await this.snapshotting;
      else await new Promise((resolve) => setImmediate(resolve));
    }
    const projector = this.projector;
    if (projector && projector.lag > 0) {
      let timer: NodeJS.Timeout | undefined;
      // A failing projector is not waited for: what it holds is projected again on the next
      // start (from its stored position), and a stop must not outlast the store's outage.
      await Promise.race([
        projector.idle(true),
        new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_PROJECTOR_WAIT_MS))),
      ]);
      clearTimeout(timer);
    }
  }

  /**
   * Makes `exchange` the engine and the store's contents the journal `entries` that built it
   * (seq 1…n), as one step: new commands are refused with SERVICE_RESETTING from the call on;
   * once everything submitted before is durable (or failed), `Store.replaceAll` writes the
   * entries in one transaction, and `exchange` takes over at their last sequence number. If
   * the store fails, memory is reloaded from what it holds, all the old state or all the new:
   * the outcome is OK only if that is the new one. A store that cannot even be read then is
   * rebuilt from in the background, as after a failed append (STORE_UNAVAILABLE meanwhile).
   */
  async replace(exchange: Exchange, entries: readonly JournalEntry[]): Promise<Outcome<null>> {
    if (this.replacing) return fail('SERVICE_RESETTING');
    if (this.recovering) return fail('STORE_UNAVAILABLE');
    this.replacing = true;
    try {
      await this.drain();
      if (this.recovering) return fail('STORE_UNAVAILABLE');
      // A projector batch written after the reset would put old rows back: let it finish.
      await this.projector?.idle();
      try {
        await this.store.replaceAll(entries);
      } catch (error) {
        this.options.onStoreError?.(error);
        return (await this.reload(exchange)) ? ok(null) : fail('STORE_UNAVAILABLE');
      }
      const wasEmpty = this.seq === 0;
      this.install(exchange, entries.length, entries.length);
      this.projector?.reset(entries.length);
      // Over an empty journal (a first start's seed) the entries are simply the first ones
      // committed: the durable listeners (a cluster's entry stream) hear of them as of appends.
      if (wasEmpty) this.notifyDurable(entries);
      else for (const listener of this.replacedListeners) listener(entries);
      return ok(null);
    } finally {
      this.replacing = false;
    }
  }

  /** After a failed replace: memory from the store; true when it holds `candidate`'s state. */
  private async reload(candidate: Exchange): Promise<boolean> {
    try {
      const recovered = await this.recoverFromStore();
      this.adopt(recovered);
      return stateHash(recovered.exchange.state) === stateHash(candidate.state);
    } catch (error) {
      this.options.onStoreError?.(error);
      void this.rebuild();
      return false;
    }
  }

  private install(exchange: Exchange, seq: number, sinceSnapshot: number): void {
    this.current = exchange;
    this.seq = seq;
    this.sinceSnapshot = sinceSnapshot;
  }

  private async rebuild(): Promise<void> {
    this.recovering = true;
    const { first, longest } = this.options.retryMs ?? { first: 50, longest: 2_000 };
    for (let attempt = 0; !this.stopped; attempt += 1) {
      try {
        // A snapshot being saved may let go of the one recovery would load (retention).
        if (this.snapshotting) await this.snapshotting;
        await this.store.resume?.();
        this.adopt(await this.recoverFromStore());
        this.failed = false;
        this.recovering = false;
        this.options.onRecovered?.(this.seq);
        return;
      } catch (error) {
        this.options.onStoreError?.(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(longest, first * 2 ** attempt)));
      }
    }
  }
}
