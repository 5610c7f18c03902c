/**
 * Committed journal entries, published to a NATS JetStream stream: one message per entry,
 * on subject `bourse.<cluster>.entries`, its body the codec's JSON of `{ seq, timeMs, type,
 * events }` and its `Nats-Msg-Id` the journal sequence number, so JetStream drops a second
 * copy of an entry (a new leader republishing the tail its predecessor may have sent) within
 * the stream's duplicate window. The sequence number is also in the `Bourse-Seq` header, so a
 * reader can order and de-duplicate beyond that window.
 *
 * Publishing happens after the commit (the store is the record; the stream a copy). Messages
 * are sent back to back on one connection, which keeps their order; a publish that fails is
 * reported and counted, and the entry is sent again with the next batch (readers skip what
 * they already have by sequence number).
 */
import { connect, headers, nanos, StorageType, type JetStreamClient, type NatsConnection } from 'nats';
import { decode, encode } from '../persistence/codec.ts';
import type { JournalEntry } from '../ports/store.ts';
import type { EngineEvent } from '../domain/events.ts';

/** What one stream message carries. */
export interface StreamedEntry {
  seq: number;
  timeMs: number;
  type: string;
  events: readonly EngineEvent[];
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

export function decodeStreamed(data: Uint8Array): StreamedEntry {
  return decode<StreamedEntry>(new TextDecoder().decode(data));
}

export class EntryStream {
  /** Entries whose publish failed (or that queued behind one), sent again first. */
  private unsent: JournalEntry[] = [];
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

  /** Publishes `entries` (in sequence order) after any that failed before. */
  publish(entries: readonly JournalEntry[]): void {
    const batch = this.unsent.length > 0 ? [...this.unsent, ...entries] : entries;
    this.unsent = [];
    for (const entry of batch) {
      const body = encode({
        seq: entry.seq,
        timeMs: entry.command.timeMs,
        type: entry.command.type,
        events: entry.events,
      } satisfies StreamedEntry);
      const h = headers();
      h.set(SEQ_HEADER, String(entry.seq));
      this.js
        .publish(this.subject, new TextEncoder().encode(body), { msgID: String(entry.seq), headers: h })
        .then(
          () => {
            this.published += 1;
          },
          (error: unknown) => {
            this.failed += 1;
            if (this.unsent.length < RESEND_LIMIT) this.unsent.push(entry);
            this.onError(error);
          },
        );
    }
  }

  /** Waits for what was sent to be answered, then closes the connection. */
  async close(): Promise<void> {
    await this.nc.drain().catch(() => undefined);
  }
}
