/**
 * An edge's reading of the JetStream entry stream (entry-stream.ts): an ordered consumer (the
 * client library's: no state on the server, messages in stream order, recreated by itself
 * after a reconnection from the last message it delivered) that starts at the message of
 * journal record `fromSeq + 1` when the stream still holds it, else at the stream's end (what
 * lies between is read from PostgreSQL: stream-follow.ts).
 *
 * Each message is handed on as the journal record it carries; whether it fits the journal
 * held is stream-follow.ts's to judge. `connected` tells the caller when to read the store
 * instead (NATS out of reach, the stream not there yet).
 */
import { connect, DeliverPolicy, Events, type ConsumerMessages, type JsMsg, type NatsConnection } from 'nats';
import { SEQ_HEADER, streamNameOf, subjectOf } from './entry-stream.ts';
import type { StreamRecord } from './stream-follow.ts';

/**
 * Messages asked of the server at a time (the ordered consumer pulls; it asks again at three
 * quarters): a busy leader publishes thousands of entries a second.
 */
const CONSUME_BATCH = 1_000;
/** How long to wait before trying again to open the consumer (the stream not there yet). */
const REOPEN_MS = 1_000;

/** How a message written by streamedText (entry-stream.ts) starts, up to its body's opening quote. */
const HEAD = /^\{"seq":(\d+),"body":"/;
/** What follows the body. */
const AFTER_BODY = /^,"checksum":(\d+),"prev":(null|\d+),/;
const BACKSLASH = 92;
const QUOTE = 34;

/**
 * The journal record in a stream message (null: none, as in an older publisher's message).
 * The record comes first in the text (streamedText): it is read from there, leaving the
 * events, most of the message, unparsed; any other layout is parsed whole.
 */
export function recordOf(data: Uint8Array): StreamRecord | null {
  const text = new TextDecoder().decode(data);
  const head = HEAD.exec(text);
  if (head) {
    const opening = head[0].length - 1;
    let at = opening + 1;
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if (code === QUOTE) break;
      at += code === BACKSLASH ? 2 : 1;
    }
    const after = AFTER_BODY.exec(text.slice(at + 1, at + 64));
    if (after) {
      return {
        seq: Number(head[1]),
        body: JSON.parse(text.slice(opening, at + 1)) as string,
        checksum: Number(after[1]),
        prev: after[2] === 'null' ? null : Number(after[2]),
      };
    }
  }
  const message = JSON.parse(text) as Record<string, unknown>;
  const { seq, body, checksum, prev } = message;
  if (typeof seq !== 'number' || typeof body !== 'string' || typeof checksum !== 'number') return null;
  return { seq, body, checksum, prev: typeof prev === 'number' ? prev : null };
}

export class EntryFeed {
  private messages: ConsumerMessages | null = null;
  private linkUp = true;
  private closed = false;
  /** Messages received (metrics, tests). */
  received = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly subject: string,
    private readonly onRecord: (record: StreamRecord) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Connects and starts consuming after journal record `fromSeq()` (the follower's position
   * then; in the background if the stream is not there yet).
   */
  static async open(
    url: string,
    cluster: string,
    fromSeq: () => number,
    onRecord: (record: StreamRecord) => void,
    onError: (error: unknown) => void,
  ): Promise<EntryFeed> {
    const nc = await connect({
      servers: url,
      name: `bourse edge pid ${process.pid}`,
      maxReconnectAttempts: -1,
    });
    const feed = new EntryFeed(nc, streamNameOf(cluster), subjectOf(cluster), onRecord, onError);
    feed.watchStatus();
    await feed.start(fromSeq);
    return feed;
  }

  /** Connected to NATS, and consuming the stream. */
  get connected(): boolean {
    return this.linkUp && this.messages !== null && !this.nc.isClosed();
  }

  private watchStatus(): void {
    void (async () => {
      for await (const status of this.nc.status()) {
        if (status.type === Events.Disconnect) this.linkUp = false;
        if (status.type === Events.Reconnect) this.linkUp = true;
      }
    })().catch(this.onError);
  }

  /** Starts the consumer; when that fails, tries again every REOPEN_MS until closed. */
  private async start(fromSeq: () => number): Promise<void> {
    try {
      const startSeq = await this.streamSeqAfter(fromSeq());
      const consumer = await this.nc.jetstream().consumers.get(this.stream, {
        filterSubjects: this.subject,
        deliver_policy: DeliverPolicy.StartSequence,
        opt_start_seq: startSeq,
      });
      this.messages = await consumer.consume({
        max_messages: CONSUME_BATCH,
        callback: (message) => this.receive(message),
      });
    } catch (error) {
      if (this.closed) return;
      this.onError(error);
      setTimeout(() => void (this.closed ? undefined : this.start(fromSeq)), REOPEN_MS).unref();
    }
  }

  private receive(message: JsMsg): void {
    this.received += 1;
    try {
      const record = recordOf(message.data);
      if (record) this.onRecord(record);
    } catch (error) {
      this.onError(error);
    }
  }

  /**
   * The stream sequence number of the message of journal record `fromSeq + 1`: the messages
   * are in journal order, so it is found from the last one's numbers when nothing between is
   * missing, and checked; otherwise the stream's end (the store fills what lies between).
   */
  private async streamSeqAfter(fromSeq: number): Promise<number> {
    const jsm = await this.nc.jetstreamManager();
    const info = await jsm.streams.info(this.stream);
    const lastStreamSeq = info.state.last_seq;
    if (info.state.messages === 0) return lastStreamSeq + 1;
    const last = await jsm.streams.getMessage(this.stream, { seq: lastStreamSeq });
    const lastJournalSeq = Number(last.header.get(SEQ_HEADER) || 0);
    if (lastJournalSeq <= fromSeq) return lastStreamSeq + 1;
    const candidate = lastStreamSeq - (lastJournalSeq - (fromSeq + 1));
    if (candidate < info.state.first_seq) return lastStreamSeq + 1;
    try {
      const message = await jsm.streams.getMessage(this.stream, { seq: candidate });
      if (Number(message.header.get(SEQ_HEADER)) === fromSeq + 1) return candidate;
    } catch {
      // Deleted or purged meanwhile: start at the end.
    }
    return lastStreamSeq + 1;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.messages?.close();
    await this.nc.close();
  }
}
