/**
 * Rolling back a step whose command threw inside the engine (used by sequencer.ts).
 *
 * Why: a throw is a bug (the engine returns failures as values), and it may come half-way
 * through the command, or in the clock jobs that ran just before it at its time (funding,
 * interest, commission days). What they changed in memory is in no journal entry, so it
 * would be lost on replay, with its bills never written. The whole step is undone instead.
 *
 * How: the thrown command is not journaled and is reported once (`onEngineError`). The
 * commands queued before it ran on a sound state: they are made durable and answered as
 * usual. Commands that arrive meanwhile wait here rather than run on the damaged memory.
 * Once nothing is in flight the engine is rebuilt from the store (latest snapshot plus
 * journal), which is exactly the state before the command; the thrown command is answered
 * SYSTEM_ERROR and the waiting ones run in arrival order. The clock jobs run again, journaled,
 * with the next command. If the store cannot be read back, the waiting commands are refused
 * (STORE_UNAVAILABLE) and the sequencer rebuilds as after a failed append.
 *
 * Limit: reads that look at the engine's memory directly during the rebuild (milliseconds,
 * the snapshot interval's worth of replay) may see the thrown command's partial effects.
 */
import type { Command } from '../domain/commands.ts';
import { fail, type Outcome } from '../domain/result-code.ts';
import type { Store } from '../ports/store.ts';
import { recover, type Recovered } from './recovery.ts';

interface Waiting {
  command: Command;
  resolve: (outcome: Outcome<unknown> | Promise<Outcome<unknown>>) => void;
}

export class Rollback {
  /** The thrown command's answer: SYSTEM_ERROR, given once the step is undone. */
  readonly thrown: Promise<Outcome<unknown>>;
  /** Set once the engine is being rebuilt from the store. */
  restoring = false;
  private readonly waiting: Waiting[] = [];
  private answerThrown!: (outcome: Outcome<unknown>) => void;

  constructor() {
    this.thrown = new Promise((resolve) => (this.answerThrown = resolve));
  }

  defer<T>(command: Command): Promise<Outcome<T>> {
    return new Promise<Outcome<T>>((resolve) => {
      this.waiting.push({ command, resolve: resolve as Waiting['resolve'] });
    });
  }

  /** The state before the thrown command, read back from the store; null (reported) when it cannot be. */
  async restore(store: Store, onStoreError?: (error: unknown) => void): Promise<Recovered | null> {
    this.restoring = true;
    try {
      return await recover(store);
    } catch (error) {
      onStoreError?.(error);
      this.refuse();
      return null;
    }
  }

  /** The step is undone: answers the thrown command, then runs the waiting ones in order. */
  finish(submit: (command: Command) => Promise<Outcome<unknown>>): void {
    this.answerThrown(fail('SYSTEM_ERROR'));
    for (const item of this.waiting.splice(0)) item.resolve(submit(item.command));
  }

  /** The store failed meanwhile: the waiting commands did not run. */
  refuse(): void {
    this.answerThrown(fail('SYSTEM_ERROR'));
    for (const item of this.waiting.splice(0)) item.resolve(fail('STORE_UNAVAILABLE'));
  }
}
