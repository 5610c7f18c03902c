/**
 * A standby's engine, kept hot: the store's state at start (snapshot and journal, as a
 * restart recovers it), then every entry committed since, read from the journal table in
 * sequence order and replayed (`Exchange.replay`, as recovery does). The leader's commit is
 * the only source: nothing a standby holds was not committed.
 *
 * Entries are run with `execute`, not `replay`, so their events are at hand: the last few
 * thousand are kept, and a standby that takes over publishes those its predecessor may not
 * have published (entry-stream.ts; the stream drops copies by sequence number).
 *
 * A gap (the leader's retention pruned entries the follower had not read, after a long pause)
 * starts over from the latest snapshot.
 */
import type { PostgresStore } from '../persistence/postgres/postgres-store.ts';
import type { JournalEntry } from '../ports/store.ts';
import { verifiedCommand } from '../persistence/journal-record.ts';
import { recover, type Recovered } from '../runtime/recovery.ts';

const PAGE_ROWS = 2_000;
/** Recent entries kept with their events (a takeover republishes the stream's missing tail). */
const RECENT_ENTRIES = 10_000;

export class JournalFollower {
  private recentEntries: JournalEntry[] = [];

  private constructor(
    private readonly store: PostgresStore,
    private state: Recovered,
  ) {}

  static async start(store: PostgresStore): Promise<JournalFollower> {
    return new JournalFollower(store, await recover(store));
  }

  get seq(): number {
    return this.state.seq;
  }

  /** The engine at `seq`, as recovery would build it (replayed counts every entry since the snapshot). */
  get recovered(): Recovered {
    return this.state;
  }

  /** The entries followed after `seq`, with their events, as far back as they are kept. */
  entriesAfter(seq: number): JournalEntry[] {
    return this.recentEntries.filter((entry) => entry.seq > seq);
  }

  /** Reads and replays every entry committed after `seq`; resolves with how many were applied. */
  async catchUp(): Promise<number> {
    let applied = 0;
    for (;;) {
      const rows = await this.store.query(
        'SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq LIMIT ?',
        [this.state.seq, PAGE_ROWS],
      );
      const first = rows[0];
      if (!first) return applied;
      if (Number(first.seq) !== this.state.seq + 1) {
        this.state = await recover(this.store);
        continue;
      }
      for (const row of rows) {
        const seq = Number(row.seq);
        if (seq !== this.state.seq + 1)
          throw new Error(`journal gap: expected ${this.state.seq + 1}, found ${seq}`);
        const command = verifiedCommand(seq, row.body, row.checksum);
        const { events } = this.state.exchange.execute(command);
        this.recentEntries.push({ seq, command, events });
        this.state.seq = seq;
        this.state.replayed += 1;
        applied += 1;
      }
      if (this.recentEntries.length > RECENT_ENTRIES * 2)
        this.recentEntries = this.recentEntries.slice(-RECENT_ENTRIES);
      if (rows.length < PAGE_ROWS) return applied;
    }
  }
}
