/**
 * The rounds an edge's follower reads the journal in: one every `everyMs`, and at once when a
 * read is waiting for one (`nudge`), so a read waits for a database round trip, not for the
 * interval. Rounds never overlap.
 *
 * A read may wait for either of two things (edge-reads.ts):
 * - `reached(seq)`: the follower has applied the entry at `seq` (the key's newest write
 *   through this edge);
 * - `fresh()`: a round that began after the call has ended, so every entry committed before
 *   the call is applied (a commit is acknowledged only once it is in the journal table).
 * Both are bounded: they resolve false after `timeoutMs` (and a round whose read failed counts
 * for neither).
 */
export class FollowLoop {
  private started = 0;
  private finished = 0;
  private running = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private waiters: { done: () => boolean; wake: () => void }[] = [];

  constructor(
    /**
     * Reads what was committed since the last round; false when the read failed or was not
     * made. `wanted`: a read waits for this round (it must read the journal table then).
     */
    private readonly round: (wanted: boolean) => Promise<boolean>,
    private readonly everyMs: number,
    private readonly seq: () => number,
  ) {}

  start(): void {
    this.schedule(this.everyMs);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (const waiter of this.waiters) waiter.wake();
    this.waiters = [];
  }

  /** Wakes the reads whose wait is over: after each round, and when the follower applied entries outside one (from the entry stream). */
  advanced(): void {
    const waiting = this.waiters;
    this.waiters = waiting.filter((waiter) => !waiter.done());
    for (const waiter of waiting) if (waiter.done()) waiter.wake();
  }

  /** Resolves true once the follower has applied `seq` (false after `timeoutMs`). */
  reached(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.seq() >= seq) return Promise.resolve(true);
    return this.wait(() => this.seq() >= seq, timeoutMs);
  }

  /** Resolves true once a round begun after this call has ended (false after `timeoutMs`). */
  fresh(timeoutMs: number): Promise<boolean> {
    // Rounds are numbered from 1; one running now is number `started`, and began too early.
    const after = this.started;
    return this.wait(() => this.finished > after, timeoutMs);
  }

  private wait(done: () => boolean, timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter = {
        done,
        wake: () => {
          clearTimeout(timer);
          resolve(done());
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(done());
      }, timeoutMs);
      this.waiters.push(waiter);
      this.nudge();
    });
  }

  /** Starts a round now unless one runs (then the next starts as soon as it ends). */
  private nudge(): void {
    if (this.running || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.run();
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.run(), delayMs);
  }

  private async run(): Promise<void> {
    this.timer = null;
    this.running = true;
    this.started += 1;
    let read = false;
    try {
      read = await this.round(this.waiters.length > 0);
    } finally {
      this.running = false;
      // A failed read is no round: what it should have read may still be unread.
      if (read) this.finished = this.started;
      this.advanced();
      // Someone still waits: read again at once rather than after the interval.
      this.schedule(read && this.waiters.length > 0 ? 0 : this.everyMs);
    }
  }
}
