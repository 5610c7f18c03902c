/**
 * Recovery: the latest snapshot, then every journal entry after it, replayed through a fresh
 * engine (`Exchange.replay`: no report views are built, their rows were written with the
 * entries), except those the projector had not written yet (`eventsAfter`), which are run with
 * their events and handed back for it.
 *
 * The store checks each record it yields (persistence/journal-record.ts) and throws on a
 * corrupted or torn one, so a damaged tail stops recovery instead of being replayed. The
 * snapshot's own record is read and checked too (not replayed): after a clean shutdown it is
 * the last record, and a damaged last record must be reported whether or not a snapshot
 * covers it. The journal must be gapless.
 *
 * Progress: a long replay (minutes of load is millions of entries) is reported through
 * `onProgress` about every `progressEveryMs` (entries done, rate, time left), and once at the
 * start and at the end, so an operator sees why the port is not answering yet. A start can be
 * abandoned between pages (`signal`, e.g. Ctrl-C during a long replay): nothing is written
 * while replaying, so stopping there loses nothing.
 */
import { performance } from 'node:perf_hooks';
import { Exchange } from '../engine/exchange.ts';
import type { EngineState } from '../engine/state.ts';
import { decode } from '../persistence/codec.ts';
import type { JournalEntry, Store } from '../ports/store.ts';

export interface Recovered {
  exchange: Exchange;
  seq: number;
  replayed: number;
  snapshotSeq: number;
  /** The entries after `eventsAfter`, with their events (for the projector), in order. */
  unprojected: JournalEntry[];
}

/** What recovery reads: a store, or a backup's files (persistence/backup/backup-recovery.ts). */
export type RecoverySource = Pick<Store, 'latestSnapshot' | 'journalAfter'> & Partial<Pick<Store, 'lastSeq'>>;

export interface RecoveryProgress {
  phase: 'start' | 'replaying' | 'done';
  snapshotSeq: number;
  /** Entries replayed so far. */
  replayed: number;
  /** Entries after the snapshot when recovery began (the last is the journal's last). */
  total: number;
  elapsedMs: number;
  /** Entries per second so far (0 until some were replayed). */
  entriesPerSecond: number;
  /** At the rate so far; null until there is a rate. */
  remainingMs: number | null;
}

export interface RecoveryOptions {
  onProgress?: (progress: RecoveryProgress) => void;
  /** How often `onProgress` hears of a replay in progress (default 2 s; it is checked per page). */
  progressEveryMs?: number;
  /** Aborted: recovery stops after the page it is replaying, throwing the signal's reason. */
  signal?: AbortSignal;
  /**
   * The projector's stored position: entries after it are run with their events (the
   * projector writes their rows, runtime/projector.ts) and returned as `unprojected`; it may
   * not be before the snapshot (a snapshot is saved only once the projector has passed it).
   */
  eventsAfter?: number;
}

const PROGRESS_EVERY_MS = 2_000;

function progressOf(
  phase: RecoveryProgress['phase'],
  snapshotSeq: number,
  replayed: number,
  total: number,
  startedMs: number,
): RecoveryProgress {
  const elapsedMs = Math.max(0, performance.now() - startedMs);
  const entriesPerSecond = elapsedMs > 0 ? (replayed * 1000) / elapsedMs : 0;
  const remainingMs = entriesPerSecond > 0 ? (Math.max(0, total - replayed) * 1000) / entriesPerSecond : null;
  return { phase, snapshotSeq, replayed, total, elapsedMs, entriesPerSecond, remainingMs };
}

export async function recover(store: RecoverySource, options: RecoveryOptions = {}): Promise<Recovered> {
  const startedMs = performance.now();
  const snapshot = await store.latestSnapshot();
  const exchange = new Exchange(snapshot ? decode<EngineState>(snapshot.body) : undefined);
  const snapshotSeq = snapshot?.seq ?? 0;
  const report = options.onProgress;
  const total = report && store.lastSeq ? Math.max(0, (await store.lastSeq()) - snapshotSeq) : 0;
  const everyMs = options.progressEveryMs ?? PROGRESS_EVERY_MS;
  let reportedMs = performance.now();
  let seq = snapshotSeq;
  let replayed = 0;
  let snapshotRecordSeen = snapshotSeq === 0;
  const eventsAfter = options.eventsAfter ?? Number.POSITIVE_INFINITY;
  if (eventsAfter < snapshotSeq) {
    throw new Error(
      `the projector's position ${eventsAfter} is before the latest snapshot ${snapshotSeq}: ` +
        'the projection rows between them cannot be rebuilt',
    );
  }
  const unprojected: JournalEntry[] = [];
  report?.(progressOf('start', snapshotSeq, 0, total, startedMs));
  reading: for await (const page of store.journalAfter(Math.max(0, snapshotSeq - 1))) {
    options.signal?.throwIfAborted();
    for (const entry of page) {
      if (entry.seq === snapshotSeq) {
        snapshotRecordSeen = true;
        continue;
      }
      if (!snapshotRecordSeen) break reading;
      if (entry.seq !== seq + 1) throw new Error(`journal gap: expected ${seq + 1}, found ${entry.seq}`);
      if (entry.seq > eventsAfter) {
        const { events } = exchange.execute(entry.command);
        unprojected.push({ seq: entry.seq, command: entry.command, events });
      } else exchange.replay(entry.command);
      seq = entry.seq;
      replayed += 1;
    }
    if (report && performance.now() - reportedMs >= everyMs) {
      reportedMs = performance.now();
      report(progressOf('replaying', snapshotSeq, replayed, total, startedMs));
    }
  }
  if (!snapshotRecordSeen) {
    throw new Error(`journal record ${snapshotSeq}, which the latest snapshot was taken at, is missing`);
  }
  report?.(progressOf('done', snapshotSeq, replayed, replayed, startedMs));
  return { exchange, seq, replayed, snapshotSeq, unprojected };
}
