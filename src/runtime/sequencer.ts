/**
 * The sequencer: the single writer. It runs each command through the engine at once (so
 * later commands see earlier ones), and acknowledges nothing until the turn's commands are
 * durable: all commands submitted in one event-loop turn share one store append (group
 * commit). Every command is journaled, failed ones included: a failure changes no business
 * state, but the engine clock and clock jobs still advance with it, and replay must see
 * exactly the stream the live engine saw. Answers wait for the flush, so no answer overtakes
 * the durability of what came before it.
 *
 * If the store fails, every answer of the turn is STORE_UNAVAILABLE (the venue's "outcome
 * unknown, query by clientOid"), and the engine is rebuilt from the store, so nothing
 * unacknowledged stays applied in memory.
 */
import type { Command } from '../domain/commands.ts';
import { fail, type Outcome } from '../domain/result-code.ts';
import type { Exchange } from '../engine/exchange.ts';
import { encode } from '../persistence/codec.ts';
import type { JournalEntry, Store } from '../ports/store.ts';
import { recover } from './recovery.ts';

interface Waiting {
  outcome: Outcome<unknown>;
  resolve: (outcome: Outcome<unknown>) => void;
}

export interface SequencerOptions {
  /** Take a snapshot after this many journal entries (0: never automatically). */
  snapshotEvery: number;
  onStoreError?: (error: unknown) => void;
}

export class Sequencer {
  private entries: JournalEntry[] = [];
  private waiting: Waiting[] = [];
  private flushScheduled = false;
  private recovering = false;
  private sinceSnapshot = 0;

  constructor(
    private current: Exchange,
    private seq: number,
    private readonly store: Store,
    private readonly options: SequencerOptions,
  ) {}

  get exchange(): Exchange {
    return this.current;
  }

  get lastSeq(): number {
    return this.seq;
  }

  submit<T>(command: Command): Promise<Outcome<T>> {
    if (this.recovering) return Promise.resolve(fail('STORE_UNAVAILABLE'));
    const { outcome, events } = this.current.execute(command);
    this.seq += 1;
    this.entries.push({ seq: this.seq, command, events });
    this.scheduleFlush();
    return new Promise((resolve) => {
      this.waiting.push({ outcome, resolve: resolve as (outcome: Outcome<unknown>) => void });
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const entries = this.entries;
    const waiting = this.waiting;
    this.entries = [];
    this.waiting = [];
    try {
      if (entries.length > 0) await this.store.append(entries);
    } catch (error) {
      this.options.onStoreError?.(error);
      for (const item of waiting) item.resolve(fail('STORE_UNAVAILABLE'));
      await this.rebuild();
      return;
    }
    for (const item of waiting) item.resolve(item.outcome);
    this.sinceSnapshot += entries.length;
    if (this.options.snapshotEvery > 0 && this.sinceSnapshot >= this.options.snapshotEvery) {
      await this.snapshot();
    }
  }

  /** Writes a snapshot of the current (durable) state. */
  async snapshot(): Promise<void> {
    if (this.entries.length > 0) return; // only at a turn boundary, when memory equals the store
    this.sinceSnapshot = 0;
    try {
      await this.store.saveSnapshot({
        seq: this.seq,
        timeMs: this.current.state.nowMs,
        body: encode(this.current.state),
      });
    } catch (error) {
      this.options.onStoreError?.(error);
    }
  }

  /** Waits until everything submitted so far is durable. */
  async drain(): Promise<void> {
    while (this.flushScheduled || this.entries.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async rebuild(): Promise<void> {
    this.recovering = true;
    for (let attempt = 0; ; attempt += 1) {
      try {
        const recovered = await recover(this.store);
        this.current = recovered.exchange;
        this.seq = recovered.seq;
        this.recovering = false;
        return;
      } catch (error) {
        this.options.onStoreError?.(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 100 * 2 ** attempt)));
      }
    }
  }
}
