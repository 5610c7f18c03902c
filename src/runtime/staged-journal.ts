/**
 * A journal built in memory: commands run through a fresh engine and are recorded as journal
 * entries (seq 1, 2, …) with their events, exactly as the sequencer would hand them to the
 * store. The operator's reset builds the first-start state here, out of sight of the running
 * venue, and hands engine and entries to Sequencer.replace in one step.
 */
import type { Command } from '../domain/commands.ts';
import type { Outcome } from '../domain/result-code.ts';
import { Exchange } from '../engine/exchange.ts';
import type { JournalEntry } from '../ports/store.ts';

export class StagedJournal {
  readonly exchange = new Exchange();
  readonly entries: JournalEntry[] = [];

  /** Runs the command at once (nothing is durable until the entries are stored). */
  submit<T>(command: Command): Promise<Outcome<T>> {
    const { outcome, events } = this.exchange.execute(command);
    this.entries.push({ seq: this.entries.length + 1, command, events });
    return Promise.resolve(outcome as Outcome<T>);
  }
}
