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
 * or a journal replaced by the operator's reset starts over from the latest snapshot.
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
  /** Times it started over from the store (a replaced journal): what it pushed before no longer holds. */
  restarts = 0;
  /** The checksum of the record at `seq` (null: not read yet, after a recovery). */
  private checksumAtSeq: number | null = null;

  private constructor(
    private readonly store: PostgresStore,
    private state: Recovered,
  ) {}

  static async start(store: PostgresStore): Promise<JournalFollower> {
    const follower = new JournalFollower(store, await recover(store));
    await follower.readChecksum();
    return follower;
  }

  /**
   * The checksum of the record recovery ended at, read right after it (a reset landing in
   * between would go unseen: the operator's reset is rare and runs on the leader).
   */
  private async readChecksum(): Promise<void> {
    if (this.state.seq === 0) return;
    const [row] = await this.store.query('SELECT checksum FROM journal WHERE seq = ?', [this.state.seq]);
    this.checksumAtSeq = row ? Number(row.checksum) : null;
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

  /**
   * Reads and replays every entry committed after `seq`; resolves with how many were applied.
   * Each read starts at the record the follower is at and checks it is still the one it
   * applied (its checksum): the operator's reset replaces the whole journal, and retention may
   * have pruned past a follower that was paused; either way it starts over from the store.
   */
  async catchUp(): Promise<number> {
    let applied = 0;
    for (;;) {
      const rows = await this.store.query(
        'SELECT seq, body, checksum FROM journal WHERE seq >= ? ORDER BY seq LIMIT ?',
        [Math.max(1, this.state.seq), PAGE_ROWS],
      );
      let from = 0;
      if (this.state.seq > 0) {
        const anchor = rows[0];
        const same =
          anchor !== undefined &&
          Number(anchor.seq) === this.state.seq &&
          (this.checksumAtSeq === null || Number(anchor.checksum) === this.checksumAtSeq);
        if (!same) {
          await this.restart();
          continue;
        }
        this.checksumAtSeq = Number(anchor.checksum);
        from = 1;
      }
      for (const row of rows.slice(from)) {
        const seq = Number(row.seq);
        if (seq !== this.state.seq + 1) {
          await this.restart();
          break;
        }
        const command = verifiedCommand(seq, row.body, row.checksum);
        const { events } = this.state.exchange.execute(command);
        this.recentEntries.push({ seq, command, events });
        this.state.seq = seq;
        this.state.replayed += 1;
        this.checksumAtSeq = Number(row.checksum);
        applied += 1;
      }
      if (this.recentEntries.length > RECENT_ENTRIES * 2)
        this.recentEntries = this.recentEntries.slice(-RECENT_ENTRIES);
      if (rows.length < PAGE_ROWS) return applied;
    }
  }

  /** The store's state from its latest snapshot: what was followed before no longer holds. */
  private async restart(): Promise<void> {
    this.state = await recover(this.store);
    this.restarts += 1;
    this.recentEntries = [];
    await this.readChecksum();
  }
}
