/**
 * Committed journal entries, published to a NATS JetStream stream: one message per entry,
 * on subject `bourse.<cluster>.entries`, its body the codec's JSON of `{ seq, body, checksum,
 * prev, timeMs, type, events }`: the events for readers that only push, and the journal
 * record itself (`body`, `checksum`: the command as the journal table holds it) for readers
 * that keep the engine's state (an edge's follower, stream-follow.ts). `prev` is the checksum
 * of the record before it (0 before the first, null when this publisher does not know it),
 * so a reader can tell that a message continues the journal it holds and not another one
 * (the operator's reset starts the journal again at 1).
 *
 * Its `Nats-Msg-Id` is `<seq>-<checksum>`, so JetStream drops a second copy of an entry (a new
 * leader republishing the tail its predecessor may have sent) within the stream's duplicate
 * window, and not the entry of the same number in a journal replaced by a reset. The sequence
 * number is also in the `Bourse-Seq` header, so a reader can order and de-duplicate beyond
 * that window.
 *
 * Publishing happens after the commit (the store is the record; the stream a copy). Messages
 * are sent back to back on one connection, which keeps their order; a publish that fails is
 * reported and counted, and the entry is sent again with the next batch (readers skip what
 * they already have by sequence number).
 */
import { connect, headers, nanos, StorageType, type JetStreamClient, type NatsConnection } from 'nats';
import { decode, encode } from '../persistence/codec.ts';
import { journalValues } from '../persistence/journal-record.ts';
import type { JournalEntry } from '../ports/store.ts';
import type { EngineEvent } from '../domain/events.ts';

/** What one stream message carries. */
export interface StreamedEntry {
  seq: number;
  timeMs: number;
  type: string;
  events: readonly EngineEvent[];
  /** The journal record's body (the codec's JSON of the command) and its CRC-32. */
  body: string;
  checksum: number;
  /** The checksum of record `seq - 1` (0 when `seq` is 1); null: the publisher did not know it. */
  prev: number | null;
}

/** A message ready to send (kept as such to send again after a failed publish). */
interface Outgoing {
  seq: number;
  data: Uint8Array;
  msgID: string;
}

export const SEQ_HEADER = 'Bourse-Seq';
const DUPLICATE_WINDOW_MS = 120_000;
/** Entries kept to send again after a failed publish. */
const RESEND_LIMIT = 10_000;

export function streamNameOf(cluster: string): string {
  return `BOURSE_${cluster.replace(/-/g, '_')}`;
}

export function subjectOf(cluster: string): string {
  return `bourse.${cluster}.entries`;
}

/**
 * A message's text: the record's fields first (seq, body, checksum, prev), in that order, so a
 * reader that needs only the record finds it without parsing the events (entry-feed.ts).
 */
export function streamedText(
  entry: JournalEntry,
  prev: number | null,
): { seq: number; checksum: number; text: string } {
  const [seq, timeMs, type, body, checksum] = journalValues(entry);
  const text = encode({
    seq,
    body,
    checksum,
    prev,
    timeMs,
    type,
    events: entry.events,
  } satisfies StreamedEntry);
  return { seq, checksum, text };
}

export function decodeStreamed(data: Uint8Array): StreamedEntry {
  return decode<StreamedEntry>(new TextDecoder().decode(data));
}

export class EntryStream {
  /** Messages whose publish failed, sent again first. */
  private unsent: Outgoing[] = [];
  /** The last record published: the `prev` of the next. */
  private last: { seq: number; checksum: number } | null = null;
  failed = 0;
  published = 0;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    readonly stream: string,
    readonly subject: string,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Connects and makes sure the stream exists (file storage, duplicate window of two minutes). */
  static async open(url: string, cluster: string, onError: (error: unknown) => void): Promise<EntryStream> {
    const nc = await connect({
      servers: url,
      name: `bourse engine pid ${process.pid}`,
      maxReconnectAttempts: -1,
    });
    const jsm = await nc.jetstreamManager();
    const stream = streamNameOf(cluster);
    const subject = subjectOf(cluster);
    try {
      await jsm.streams.info(stream);
    } catch {
      await jsm.streams.add({
        name: stream,
        subjects: [subject],
        storage: StorageType.File,
        duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      });
    }
    return new EntryStream(nc, nc.jetstream(), stream, subject, onError);
  }

  /** The journal sequence number of the stream's last message (0 when empty). */
  async lastSeq(): Promise<number> {
    const jsm = await this.nc.jetstreamManager();
    try {
      const message = await jsm.streams.getMessage(this.stream, { last_by_subj: this.subject });
      return Number(message.header.get(SEQ_HEADER) || 0);
    } catch {
      return 0;
    }
  }

  /**
   * Where the journal stands before the next entry published (a new leader: the record its
   * follower holds at `seq`), so that entry's `prev` is known.
   */
  continueAfter(seq: number, checksum: number): void {
    this.last = { seq, checksum };
  }

  /** Publishes `entries` (in sequence order) after any that failed before. */
  publish(entries: readonly JournalEntry[]): void {
    const batch = this.unsent;
    this.unsent = [];
    for (const entry of entries) batch.push(this.outgoing(entry));
    for (const message of batch) {
      const h = headers();
      h.set(SEQ_HEADER, String(message.seq));
      this.js.publish(this.subject, message.data, { msgID: message.msgID, headers: h }).then(
        () => {
          this.published += 1;
        },
        (error: unknown) => {
          this.failed += 1;
          if (this.unsent.length < RESEND_LIMIT) this.unsent.push(message);
          this.onError(error);
        },
      );
    }
  }

  /**
   * The operator's reset replaced the journal with `entries` (seq 1…n): they are published as
   * a journal starting again, so readers see the sequence number go back and read the store.
   */
  replaced(entries: readonly JournalEntry[]): void {
    this.unsent = [];
    this.last = null;
    this.publish(entries);
  }

  private outgoing(entry: JournalEntry): Outgoing {
    const last = this.last;
    const prev = entry.seq === 1 ? 0 : last !== null && last.seq === entry.seq - 1 ? last.checksum : null;
    const { seq, checksum, text } = streamedText(entry, prev);
    this.last = { seq, checksum };
    return { seq, data: new TextEncoder().encode(text), msgID: `${seq}-${checksum}` };
  }

  /** Waits for what was sent to be answered, then closes the connection. */
  async close(): Promise<void> {
    await this.nc.drain().catch(() => undefined);
  }
}
