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
 *
 * Records may also come from the JetStream entry stream (`applyRecord`, stream-follow.ts,
 * which checks they continue this journal first); the checksums of the recent records are
 * kept so a copy of one already applied is recognised.
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
  /** The checksum of each of `recentEntries`, at the same index. */
  private recentChecksums: number[] = [];
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

  /** The checksum of the record at `seq` (0 at seq 0; null: not known since a recovery). */
  get checksum(): number | null {
    return this.state.seq === 0 ? 0 : this.checksumAtSeq;
  }

  /** The checksum of record `seq` if it is among the recent ones applied (undefined otherwise). */
  checksumAt(seq: number): number | undefined {
    if (seq === this.state.seq && this.checksumAtSeq !== null) return this.checksumAtSeq;
    const first = this.recentEntries[0];
    return first ? this.recentChecksums[seq - first.seq] : undefined;
  }

  /** The entries followed after `seq`, with their events, as far back as they are kept. */
  entriesAfter(seq: number): JournalEntry[] {
    const first = this.recentEntries[0];
    if (!first) return [];
    // Kept entries are consecutive: the first after `seq` is at a known index.
    return this.recentEntries.slice(Math.max(0, seq + 1 - first.seq));
  }

  /**
   * Runs record `seq`, which must be the next (the caller checked it continues this journal:
   * stream-follow.ts); a body that does not match its checksum throws CorruptJournalError.
   */
  applyRecord(seq: number, body: unknown, checksum: unknown): void {
    if (seq !== this.state.seq + 1) throw new Error(`record ${seq} applied after ${this.state.seq}`);
    const command = verifiedCommand(seq, body, checksum);
    const { events } = this.state.exchange.execute(command);
    this.recentEntries.push({ seq, command, events });
    this.recentChecksums.push(Number(checksum));
    this.state.seq = seq;
    this.state.replayed += 1;
    this.checksumAtSeq = Number(checksum);
    if (this.recentEntries.length > RECENT_ENTRIES * 2) {
      this.recentEntries = this.recentEntries.slice(-RECENT_ENTRIES);
      this.recentChecksums = this.recentChecksums.slice(-RECENT_ENTRIES);
    }
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
        this.applyRecord(seq, row.body, row.checksum);
        applied += 1;
      }
      if (rows.length < PAGE_ROWS) return applied;
    }
  }

  /** The store's state from its latest snapshot: what was followed before no longer holds. */
  private async restart(): Promise<void> {
    this.state = await recover(this.store);
    this.restarts += 1;
    this.recentEntries = [];
    this.recentChecksums = [];
    await this.readChecksum();
  }
}
