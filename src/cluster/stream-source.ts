/**
 * A follower's entry stream (entry-feed.ts), opened in the background and again after a
 * failure (NATS may be out of reach when the process starts), its records handed to a
 * StreamFollow; and when the follower should read PostgreSQL instead: while the stream is out
 * of reach, and after a second without a message (an idle venue, or a stream that lost its
 * publisher: the store is the authority).
 */
import { EntryFeed } from './entry-feed.ts';
import type { StreamFollow } from './stream-follow.ts';

/** With the stream, the store is read anyway after this long without a message. */
const QUIET_READ_MS = 1_000;
/** How long to wait before connecting to NATS again after a failed attempt. */
const RECONNECT_MS = 1_000;

export class StreamSource {
  private feed: EntryFeed | null = null;
  private closed = false;
  /** When the last message came, and the store was last read for want of one (performance.now() ms). */
  private lastRecordMs = 0;
  private lastReadMs = 0;

  constructor(
    private readonly natsUrl: string,
    private readonly cluster: string,
    fromSeq: () => number,
    private readonly follow: StreamFollow,
    private readonly onError: (error: unknown) => void,
  ) {
    void this.open(fromSeq);
  }

  get connected(): boolean {
    return this.feed?.connected ?? false;
  }

  /** Whether the follower should read the store now (true: it is taken as read). */
  readDue(): boolean {
    const nowMs = performance.now();
    if (this.connected && nowMs - Math.max(this.lastReadMs, this.lastRecordMs) < QUIET_READ_MS) return false;
    this.lastReadMs = nowMs;
    return true;
  }

  private async open(fromSeq: () => number): Promise<void> {
    try {
      const feed = await EntryFeed.open(
        this.natsUrl,
        this.cluster,
        fromSeq,
        (record) => {
          this.lastRecordMs = performance.now();
          this.follow.offer(record);
        },
        this.onError,
      );
      if (this.closed) return void (await feed.close());
      this.feed = feed;
    } catch (error) {
      this.onError(error);
      if (!this.closed) setTimeout(() => void this.open(fromSeq), RECONNECT_MS).unref();
    }
  }

  /** Stops the stream: no record is offered after this resolves. */
  async close(): Promise<void> {
    this.closed = true;
    await this.feed?.close();
  }
}
