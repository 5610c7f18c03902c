/**
 * SQLite store (better-sqlite3, WAL, synchronous=FULL): the embedded default.
 *
 * One `append` is one transaction and one fsync, however many commands it carries (group
 * commit). With `writer: 'thread'` (what the server uses unless BOURSE_SQLITE_WRITER=inline)
 * writes run in a writer thread with its own connection (sqlite-writer.ts), so commits and
 * fsyncs leave the event loop and up to APPENDS_IN_FLIGHT appends queue there while the next
 * group forms; with `writer: 'inline'` (this function's default, for in-process tools and
 * tests) they run on this connection. Reads always run here and see every commit that has
 * returned (WAL). Each journal row carries a
 * CRC-32 of its body; recovery refuses a row whose checksum does not match
 * (persistence/journal-record.ts). Tables, rows and queries come from persistence/schema.ts,
 * projection.ts, queries.ts and sql-reads.ts, shared with every other store.
 *
 * A failed write (disk full, I/O error, the file locked by another process) rolls the whole
 * transaction back and rejects; the connection stays usable, so the next append succeeds as
 * soon as the cause is gone (in the writer thread, once `resume()` lets appends through again:
 * the ones queued behind a failed one are refused, so the journal gets no gap).
 */
import Database from 'better-sqlite3';
import type { JournalEntry, Snapshot, Store } from '../../ports/store.ts';
import {
  INITIAL_PROJECTOR_POSITION_SQL,
  journalRowsOf,
  PROJECTOR_POSITION_SQL,
  projectionRowsOf,
  eventRowsOf,
  positionRowsOf,
  replacementRowsOf,
  rowsOfEntries,
} from '../journal-record.ts';
import { verifiedPrefix, type JournalRecord } from '../journal-pages.ts';
import { readJournalInThread } from '../journal-reader-thread.ts';
import { pendingMigrations } from '../migrations.ts';
import type { Value } from '../projection.ts';
import { DEFAULT_RETENTION, pruneJournal, sqlPruning, type RetentionPolicy } from '../retention.ts';
import type { Sql } from '../queries.ts';
import { sqlReads } from '../sql-reads.ts';
import { migrationDdl } from '../schema.ts';
import { SqliteWriter, type WriterMode } from './sqlite-writer.ts';

export { CorruptJournalError } from '../journal-record.ts';

/** The SQLite store, with what tests and the plan script need beyond the port. */
export interface SqliteStore extends Store {
  readonly kind: 'sqlite';
  /** The read connection (tests and the plan script read through it). */
  readonly db: Database.Database;
  /** Runs a pragma on the write connection (tests inject faults: `max_page_count`). */
  pragma(text: string): Promise<unknown>;
  /** The query plan of a read, one line per step. */
  explain(sql: Sql): Promise<string[]>;
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER)');
  const rows = db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[];
  for (const migration of pendingMigrations(rows.map((row) => row.version))) {
    db.transaction(() => {
      for (const statement of migrationDdl(migration, 'sqlite')) db.exec(statement);
      db.prepare('INSERT INTO schema_migrations (version, applied_ms) VALUES (?, ?)').run(
        migration.version,
        Date.now(),
      );
    })();
  }
}

/** Appends queued at once in the writer thread (the sequencer hands over each group as it forms). */
const APPENDS_IN_FLIGHT = 4;

/** Journal records per page read during recovery. */
const JOURNAL_PAGE_ROWS = 4_096;

export interface SqliteStoreOptions {
  /** Writes in a writer thread, or inline on the store's connection (the default here). */
  writer?: WriterMode;
  /** What a saved snapshot lets go of (persistence/retention.ts); DEFAULT_RETENTION if unset. */
  retention?: RetentionPolicy;
}

export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = new Database(file);
  // 8 KiB pages for a new file (an existing one keeps its size): a commit writes about half as
  // many WAL frames, each two write calls, and a checkpoint copies them with half as many calls;
  // a journal row of a 20-order place-batch (about 2.7 KB) no longer leaves a third of a 4 KiB
  // page empty (2026-11-26, docs/performance.md).
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  db.prepare(INITIAL_PROJECTOR_POSITION_SQL).run();
  const statements = new Map<string, Database.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const all = (sql: Sql) => prepared(sql.text).all(...sql.params) as Record<string, unknown>[];
  async function* journalHere(after: number): AsyncIterable<readonly JournalRecord[]> {
    const select = prepared('SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
    for (let last = after; ;) {
      const rows = select.all(last, JOURNAL_PAGE_ROWS) as { seq: number; body: unknown; checksum: unknown }[];
      const { records, failure } = verifiedPrefix(rows);
      if (records.length > 0) yield records;
      if (failure) throw failure;
      if (rows.length < JOURNAL_PAGE_ROWS) return;
      last = rows[rows.length - 1]?.seq ?? last;
    }
  }
  const writer = new SqliteWriter(file, options.writer ?? 'inline', db);
  // Projection rows go to the writer thread as their entries become durable (`stage`), so the
  // main thread holds no entry while it waits to be projected (docs/persistence.md).
  const staging = writer.threaded;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const pruning = sqlPruning(
    async (text, params) => prepared(text).all(...params) as Record<string, unknown>[],
    async (text, params) => {
      await writer.run(text, params as Value[]);
    },
  );

  return {
    kind: 'sqlite',
    db,
    async latestSnapshot(): Promise<Snapshot | null> {
      const row = prepared('SELECT seq, time_ms, body FROM snapshots ORDER BY seq DESC LIMIT 1').get() as
        { seq: number; time_ms: number; body: string } | undefined;
      return row ? { seq: row.seq, timeMs: row.time_ms, body: row.body } : null;
    },
    journalAfter(seq: number) {
      // A file is read ahead in a reader thread; an in-memory database only here.
      if (file === ':memory:' || file === '') return journalHere(seq);
      return readJournalInThread(new URL('./sqlite-journal-reader.mjs', import.meta.url), {
        file,
        after: seq,
        pageRows: JOURNAL_PAGE_ROWS,
      });
    },
    async lastSeq() {
      const row = prepared('SELECT MAX(seq) AS seq FROM journal').get() as { seq: number | null };
      return row.seq ?? 0;
    },
    // The writer thread queues appends in order and refuses those after a failed one until
    // `resume`, so several may be in flight; inline, each commits before `append` returns.
    appendsInFlight: writer.threaded ? APPENDS_IN_FLIGHT : 1,
    // A partial group goes beside one append in flight, so the thread finds the next commit
    // queued when it ends one instead of idling until the event loop hears back and sends it
    // (paced 50,000 orders/s, same-time A/B: p50 2.1 -> 1.3 ms; docs/performance.md). Not
    // beside more: under a closed loop the groups would shrink and cost the event loop more.
    partialGroupsBeside: writer.threaded ? 2 : 1,
    get pendingWrites() {
      return writer.pendingRequests;
    },
    async sizeBytes() {
      const pages = prepared(
        'SELECT page_count - freelist_count AS pages, page_size AS size FROM pragma_page_count(), pragma_freelist_count(), pragma_page_size()',
      ).get() as { pages: number; size: number };
      return pages.pages * pages.size;
    },
    async resume() {
      await writer.resume();
    },
    async append(entries) {
      await writer.write(rowsOfEntries(entries), true);
    },
    // Write-behind: the same chained queue with the journal rows alone; the projector's
    // batches are writes of their own between appends (which may pass those queued), so one
    // that fails never stops the journal.
    async appendJournal(entries) {
      await writer.write(journalRowsOf(entries), true);
    },
    // The writer thread commits appends and projections one after another: a projection
    // batch of 32 entries (about 3,000 rows of crossing orders) holds the journal back a few
    // milliseconds, not the hundred a batch of 256 took (docs/performance.md).
    projectBatchEntries: 32,
    async project(entries) {
      await writer.project(projectionRowsOf(entries));
    },
    ...(staging
      ? {
          stage(entries: readonly JournalEntry[]) {
            const [first, last] = [entries[0], entries.at(-1)];
            if (first && last) writer.stage(first.seq, last.seq, eventRowsOf(entries));
          },
          async projectStaged(from: number, through: number) {
            await writer.projectStaged(from, through, positionRowsOf(through));
          },
        }
      : {}),
    async projectedSeq() {
      const row = prepared(PROJECTOR_POSITION_SQL).get() as { seq: number } | undefined;
      return row?.seq ?? 0;
    },
    async saveSnapshot(snapshot) {
      await writer.saveSnapshot(snapshot, retention.snapshots);
      await pruneJournal(pruning, retention);
    },
    async replaceAll(entries) {
      await writer.replaceAll(replacementRowsOf(entries));
    },
    async pragma(text) {
      return writer.pragma(text);
    },
    // Reads (bills, orders, fills, …) are shared with PostgreSQL: add new ones in sql-reads.ts.
    ...sqlReads(async (sql) => all(sql)),
    async explain(sql) {
      const rows = db.prepare(`EXPLAIN QUERY PLAN ${sql.text}`).all(...sql.params) as { detail: string }[];
      return rows.map((row) => row.detail);
    },
    async close() {
      await writer.close();
      if (db.open) db.close();
    },
  };
}
