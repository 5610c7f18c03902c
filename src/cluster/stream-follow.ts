/**
 * Following the journal from the JetStream entry stream (entry-stream.ts), with the journal
 * in PostgreSQL as the authority: the order and gap logic, apart from NATS (entry-feed.ts
 * brings the messages) so that it can be tested with a fake source.
 *
 * A record from the stream is applied only when it is the next one of the journal held: its
 * sequence number is one more, and its `prev` is the checksum of the record held. Anything
 * else is not trusted:
 * - a copy of a record already applied (same sequence number and checksum) is dropped;
 * - a gap (the number jumps: a new or purged stream, messages lost while NATS was down), a
 *   record whose `prev` is unknown or another, or a number that goes back (the operator's
 *   reset starts the journal again) makes the follower read PostgreSQL (`catchUp`, which
 *   also starts over from the store when the journal was replaced), then go on with the
 *   stream.
 *
 * Why a read of the store settles any record received before it started: the leader publishes
 * a record only after its commit, so a read that starts after the record arrived sees it (and
 * the reset that made it, if one did). Such a record is then dropped if it still does not fit.
 *
 * Everything runs one step at a time (records and reads of the store), so nothing is applied
 * twice or out of order; `onAdvanced` hears after each step, with every record applied in it.
 */

/** A journal record as the stream carries it. */
export interface StreamRecord {
  seq: number;
  body: string;
  checksum: number;
  /** The checksum of record `seq - 1` (0 before the first); null when the publisher did not know it. */
  prev: number | null;
}

/** What the follower offers (journal-follower.ts). */
export interface FollowedJournal {
  /** The sequence number of the last record applied. */
  readonly seq: number;
  /** The checksum of the record at `seq` (0 at 0; null: not known). */
  readonly checksum: number | null;
  /** The checksum of a recent record applied (undefined: not kept). */
  checksumAt(seq: number): number | undefined;
  /** Applies the next record (seq + 1). */
  applyRecord(seq: number, body: string, checksum: number): void;
  /** Reads the store to its end, starting over if the journal was replaced. */
  catchUp(): Promise<number>;
}

/** How long after a failed step (the store out of reach) the next is tried. */
const RETRY_AFTER_ERROR_MS = 250;

interface Arrived {
  record: StreamRecord;
  /** The number of records received when this one was. */
  arrival: number;
}

export class StreamFollow {
  private queue: Arrived[] = [];
  private arrivals = 0;
  /** Every record received up to this arrival number is settled by a finished read of the store. */
  private settledUpTo = 0;
  /** Store reads asked for and not yet run (a watchdog, the stream down), and who waits for them. */
  private readWanted = false;
  private readWaiters: { resolve: () => void; reject: (error: unknown) => void }[] = [];
  private stopped = false;
  private running: Promise<void> | null = null;
  /** Records applied from the stream, copies dropped, reads of the store (metrics, tests). */
  readonly counts = { applied: 0, duplicates: 0, reads: 0, dropped: 0 };

  constructor(
    private readonly journal: FollowedJournal,
    private readonly onAdvanced: () => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** A record received from the stream. */
  offer(record: StreamRecord): void {
    if (this.stopped) return;
    this.arrivals += 1;
    this.queue.push({ record, arrival: this.arrivals });
    this.schedule();
  }

  /**
   * Reads the store to its end (the stream is down, or quiet for too long); resolves once
   * read, rejects if that read fails (the caller asks again when it sees fit).
   */
  readStore(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.readWanted = true;
    const read = new Promise<void>((resolve, reject) => this.readWaiters.push({ resolve, reject }));
    this.schedule();
    return read;
  }

  /** Takes nothing more: what is queued is dropped; resolves once the step under way is over. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue = [];
    this.readWanted = false;
    for (const waiter of this.readWaiters.splice(0)) waiter.resolve();
    await this.idle();
  }

  /** Resolves once every record received and every read asked for is done. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private schedule(): void {
    if (this.running || this.stopped) return;
    this.running = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.run())
      .catch((error: unknown) => {
        // The store out of reach: try again a little later, not in a tight loop.
        this.onError(error);
        return new Promise<void>((resolve) => setTimeout(resolve, RETRY_AFTER_ERROR_MS));
      })
      .finally(() => {
        this.running = null;
        if (this.queue.length > 0 || this.readWanted) this.schedule();
      });
  }

  /** Runs what is queued: records that fit at once, a read of the store for those that do not. */
  private async run(): Promise<void> {
    let advanced = false;
    try {
      if (this.readWanted) {
        await this.read();
        advanced = true;
      }
      while (this.queue.length > 0 && !this.stopped) {
        const next = this.queue[0] as Arrived;
        if (this.fits(next.record)) {
          this.journal.applyRecord(next.record.seq, next.record.body, next.record.checksum);
          this.counts.applied += 1;
          advanced = true;
        } else if (this.isCopy(next.record)) {
          this.counts.duplicates += 1;
        } else if (next.arrival <= this.settledUpTo) {
          // The store was read since it arrived: what it brought is applied, or was replaced.
          this.counts.dropped += 1;
        } else {
          if (advanced) this.onAdvanced();
          advanced = false;
          await this.read();
          advanced = true;
          continue; // the same record again, now settled
        }
        this.queue.shift();
      }
    } finally {
      if (advanced) this.onAdvanced();
    }
  }

  private fits(record: StreamRecord): boolean {
    const { journal } = this;
    return (
      record.seq === journal.seq + 1 &&
      record.prev !== null &&
      journal.checksum !== null &&
      record.prev === journal.checksum
    );
  }

  private isCopy(record: StreamRecord): boolean {
    return record.seq <= this.journal.seq && this.journal.checksumAt(record.seq) === record.checksum;
  }

  private async read(): Promise<void> {
    this.readWanted = false;
    const waiters = this.readWaiters;
    this.readWaiters = [];
    const upTo = this.arrivals;
    this.counts.reads += 1;
    try {
      await this.journal.catchUp();
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      throw error;
    }
    this.settledUpTo = Math.max(this.settledUpTo, upTo);
    for (const waiter of waiters) waiter.resolve();
  }
}
