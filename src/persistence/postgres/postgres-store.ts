/**
 * PostgreSQL store (node-postgres), selected by BOURSE_DATABASE_URL=postgres://…
 *
 * Same tables, rows and queries as SQLite (schema.ts, projection.ts, queries.ts,
 * sql-reads.ts), migrated on open, forward only, under an advisory lock so two servers
 * starting together do not race. One `append` is one statement (postgres/batch-write.ts), so
 * one commit (synchronous_commit: the WAL is flushed before it returns) per group of commands.
 *
 * Appends are pipelined on a connection of their own (sent without waiting for the one before
 * to return, so the server never idles while the event loop is busy), snapshots and
 * migrations use a pool of one, and reads their own small pool, so a history query never waits
 * behind a commit. A connection that breaks (PostgreSQL restarted,
 * the network cut) is dropped and the next call opens a fresh one: the store needs no
 * restart when the server comes back. A write that fails leaves its outcome unknown only
 * when the connection broke during the commit; the sequencer then reloads the state from the
 * store, and the journal's primary key refuses any later batch that would reuse a sequence
 * number a late commit did take.
 */
import pg from 'pg';
import type { JournalEntry, Snapshot, Store } from '../../ports/store.ts';
import {
  INITIAL_PROJECTOR_POSITION_SQL,
  journalRowsOf,
  lastJournalRecord,
  PROJECTOR_POSITION_SQL,
  projectionRowsOf,
  replacementRowsOf,
  rowsOfEntries,
  type JournalMark,
} from '../journal-record.ts';
import type { RowBatch } from '../projection.ts';
import { readJournalInThread } from '../journal-reader-thread.ts';
import { pendingMigrations } from '../migrations.ts';
import {
  DEFAULT_RETENTION,
  pruneJournal,
  RETENTION_SQL,
  sqlPruning,
  type RetentionPolicy,
} from '../retention.ts';
import type { Sql } from '../queries.ts';
import { migrationDdl, storedTableNames } from '../schema.ts';
import { sqlReads, type Row } from '../sql-reads.ts';
import { batchStatement, numbered, type Fence } from './batch-write.ts';
import { settingsAdvice } from './settings-advice.ts';

export interface PostgresStoreOptions {
  /** Connections for reads (history queries); appends use one of their own, snapshots another. */
  readConnections?: number;
  /** A write that takes longer is abandoned and reported as failed. */
  writeTimeoutMs?: number;
  /** How long to wait for a connection before failing the call. */
  connectTimeoutMs?: number;
  /** Errors of idle connections (they are dropped and replaced on next use). */
  onError?: (error: unknown) => void;
  /** What a saved snapshot lets go of (persistence/retention.ts); DEFAULT_RETENTION if unset. */
  retention?: RetentionPolicy;
  /** A cluster leader's fencing token, read at each append (batch-write.ts `Fence`); none when it returns null. */
  fence?: () => Fence | null;
}

export interface PostgresStore extends Store {
  readonly kind: 'postgres';
  /** Runs SQL with `?` placeholders on a read connection (tests, the plan script). */
  query(text: string, params?: unknown[]): Promise<Row[]>;
  /** The query plan of a read, one line per step. */
  explain(sql: Sql, options?: { analyze?: boolean }): Promise<string[]>;
  /** What to change in the server's settings that cost commits (settings-advice.ts); [] when nothing. */
  settingsAdvice(): Promise<string[]>;
}

const JOURNAL_PAGE = 5_000;
/** Appends the sequencer may hand over at once (they are sent one after another). */
const APPENDS_IN_FLIGHT = 4;
const MIGRATION_LOCK = 0x626f7572; // 'bour'

/** BIGINT columns come back as numbers, as SQLite's INTEGER does (every value is below 2^53). */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured PostgreSQL';
  }
}

/**
 * Deduplication off on bourse's non-unique indexes (PostgreSQL 13 and later), once: their keys
 * end with the table's primary key or are otherwise (nearly) unique, so the deduplication pass
 * PostgreSQL runs before splitting a full leaf page finds nothing to merge and is wasted work
 * (about a twelfth of the backends' CPU per order when every order fills, docs/performance.md,
 * 2026-11-26). An index it cannot change (owned by another role) is left as it is.
 */
async function indexesWithoutDeduplication(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT quote_ident(c.relname) AS name FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_am a ON a.oid = c.relam
     WHERE n.nspname = current_schema() AND a.amname = 'btree' AND NOT i.indisunique
       AND t.relname = ANY($1) AND current_setting('server_version_num')::int >= 130000
       AND NOT COALESCE(c.reloptions @> '{deduplicate_items=off}', false)`,
    [storedTableNames()],
  );
  for (const { name } of rows) {
    await client.query(`ALTER INDEX ${name} SET (deduplicate_items = off)`).catch(() => undefined);
  }
}

async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms BIGINT NOT NULL)',
    );
    const applied = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    for (const migration of pendingMigrations(applied.rows.map((row) => row.version))) {
      await client.query('BEGIN');
      try {
        for (const statement of migrationDdl(migration, 'postgres')) await client.query(statement);
        await client.query('INSERT INTO schema_migrations (version, applied_ms) VALUES ($1, $2)', [
          migration.version,
          Date.now(),
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    }
    await indexesWithoutDeduplication(client);
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    client.release();
  } catch (error) {
    client.release(true);
    throw error;
  }
}

/**
 * Empties a finished statement's parameters (the driver holds the same array). Finished
 * queries stay reachable for a while from old-generation storage in node-postgres (most
 * likely the backing stores its long-lived query queues leave behind as they grow, which a
 * young collection treats as live), so the parameters they held (an append's JSON rows, tens
 * of KB) were copied and promoted instead of dying young: about 3.4 MB per scavenge and pauses
 * of 8-10 ms at 25,000 orders/s, against next to nothing once emptied (docs/performance.md).
 */
function forget(values: unknown[] | undefined): void {
  if (values) values.length = 0;
}

/**
 * Values PostgreSQL compresses (journal bodies of more than about 2 KB: a place-batch of 20
 * orders is 2.6 KB; snapshots) compressed with lz4 rather than pglz on this session: about a
 * quarter of pglz's time per journal row, and faster to read back at recovery (measured: 21.5
 * → 5.0 µs per 2.6 KB row; docs/performance.md, 2026-11-26). A server built without lz4, or
 * older than PostgreSQL 14, refuses the setting: the session then keeps its default.
 */
function preferLz4(client: pg.ClientBase): Promise<void> {
  return client.query("SET default_toast_compression = 'lz4'").then(
    () => undefined,
    () => undefined,
  );
}

/** Runs one statement on a pooled connection; a connection that failed is destroyed, not reused. */
async function run(pool: pg.Pool, config: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
  const client = await pool.connect();
  try {
    const result = await client.query<Row>(config);
    client.release();
    return result;
  } catch (error) {
    // Errors are rare and some leave the connection unusable (terminated, timed out
    // mid-statement): never hand a connection that failed to the next caller.
    client.release(true);
    throw error;
  }
}

export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<PostgresStore> {
  const base: pg.PoolConfig = {
    connectionString: url,
    application_name: 'bourse',
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    keepAlive: true,
    types: pgTypes,
  };
  const writer = new pg.Pool({ ...base, max: 1 });
  const reader = new pg.Pool({ ...base, max: options.readConnections ?? 4 });
  const reportError = (error: unknown) => options.onError?.(error);
  for (const pool of [writer, reader]) {
    // A connection can fail while checked out but between statements (terminated by the
    // server, reset by the network): the next statement on it fails and it is dropped, so
    // the event itself is only reported.
    pool.on('error', reportError);
    pool.on('connect', (client) => client.on('error', reportError));
  }
  // The snapshot connection writes projector batches and snapshots; the SET is queued ahead
  // of its first statement.
  writer.on('connect', (client) => void preferLz4(client));
  const writeTimeoutMs = options.writeTimeoutMs ?? 10_000;
  /**
   * The connection appends are pipelined on: each statement is sent at once, without waiting
   * for the one before to commit, so the server goes from one to the next while the event
   * loop is busy elsewhere. Opened on first use, dropped after a failed append.
   */
  let appender: Promise<pg.Client> | null = null;
  /** The last journal record of the latest append sent on `appender`, which the next one checks. */
  let lastSent: JournalMark | undefined;
  /** Why an append failed, while later ones are refused (until `resume`). */
  let refusing: string | null = null;
  const openAppender = async (): Promise<pg.Client> => {
    const client = new pg.Client({ ...base, pipeline: true });
    client.on('error', reportError);
    try {
      await client.connect();
      await preferLz4(client);
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  };
  /** Drops `connection` after a failed append, unless a newer one has replaced it already. */
  const dropAppender = (connection: Promise<pg.Client>): void => {
    if (appender !== connection) return;
    appender = null;
    connection.then((client) => client.end()).catch(() => undefined);
  };
  try {
    await migrate(writer);
    // A store without a projector position gets one (journal-record.ts): before any append.
    await run(writer, { text: INITIAL_PROJECTOR_POSITION_SQL });
  } catch (error) {
    await Promise.all([writer.end(), reader.end()]);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL store at ${describeUrl(url)}: ${reason}`, { cause: error });
  }
  const all = async (sql: Sql): Promise<Row[]> =>
    (await run(reader, { text: numbered(sql.text), values: sql.params })).rows;
  let closed = false;
  /** Appends and snapshots sent and not yet answered (metrics). */
  let pendingWrites = 0;
  const retention = options.retention ?? DEFAULT_RETENTION;
  // Reads on the writer's pool too: each sees the statement before it committed.
  const onWriter = async (text: string, params: unknown[]) =>
    (await run(writer, { text: numbered(text), values: params })).rows;
  const pruning = sqlPruning(onWriter, async (text, params) => {
    await onWriter(text, params);
  });

  /**
   * Sends one append's rows on the pipelined connection, guarded by the append before it
   * (batchStatement's guard): `append` and `appendJournal` both go through here.
   */
  const sendAppend = (rows: RowBatch): Promise<void> => {
    if (refusing !== null)
      return Promise.reject(new Error(`an earlier append failed (${refusing}); refused until resumed`));
    const statement = batchStatement(rows, lastSent, options.fence?.() ?? undefined);
    if (!statement) return Promise.resolve();
    lastSent = lastJournalRecord(rows) ?? lastSent;
    const connection = (appender ??= openAppender());
    pendingWrites += 1;
    return connection
      .then((client) => client.query({ ...statement, query_timeout: writeTimeoutMs } as pg.QueryConfig))
      .then(
        () => {
          pendingWrites -= 1;
          forget(statement.values);
        },
        (error: unknown) => {
          pendingWrites -= 1;
          forget(statement.values);
          refusing ??= error instanceof Error ? error.message : String(error);
          dropAppender(connection);
          throw error;
        },
      );
  };

  return {
    kind: 'postgres',
    async latestSnapshot(): Promise<Snapshot | null> {
      const [row] = await all({
        text: 'SELECT seq, time_ms, body FROM snapshots ORDER BY seq DESC LIMIT 1',
        params: [],
      });
      return row ? { seq: Number(row.seq), timeMs: Number(row.time_ms), body: String(row.body) } : null;
    },
    journalAfter(seq: number) {
      // Read ahead in a reader thread on its own connection (persistence/journal-reader-thread.ts).
      return readJournalInThread(new URL('./postgres-journal-reader.mjs', import.meta.url), {
        url,
        after: seq,
        pageRows: JOURNAL_PAGE,
        connectTimeoutMs: options.connectTimeoutMs ?? 5_000,
      });
    },
    async lastSeq() {
      const [row] = await all({ text: 'SELECT MAX(seq) AS seq FROM journal', params: [] });
      return row?.seq === null || row?.seq === undefined ? 0 : Number(row.seq);
    },
    // Appends are pipelined on one connection (`appender`): each statement is built and sent
    // at once, and the server runs them one after another, each its own transaction. Each
    // checks that the append before it committed (batchStatement's guard), so after a failed
    // one those already sent fail too, and later ones are refused unsent until `resume`: the
    // journal never gets a gap.
    appendsInFlight: APPENDS_IN_FLIGHT,
    // The server runs what it is sent back to back: a partial group waiting for the appends in
    // flight would leave it idle until the event loop hears back (paced 25,000 orders/s: p50
    // 7-13 ms waiting, 3.4-3.9 ms sent at once; docs/performance.md).
    partialGroupsBeside: APPENDS_IN_FLIGHT,
    async resume() {
      refusing = null;
      lastSent = undefined;
    },
    append(entries: readonly JournalEntry[]) {
      return sendAppend(rowsOfEntries(entries));
    },
    // Write-behind: the journal rows alone, pipelined and guarded as any append.
    appendJournal(entries: readonly JournalEntry[]) {
      return sendAppend(journalRowsOf(entries));
    },
    // The projector's batches run on the snapshot connection, each its own transaction with
    // the position, so they never wait behind nor break the pipelined appends.
    async project(entries) {
      // Fenced like the appends: a leader that lost its lease writes no projection rows either.
      const statement = batchStatement(projectionRowsOf(entries), undefined, options.fence?.() ?? undefined);
      if (!statement) return;
      pendingWrites += 1;
      try {
        await run(writer, { ...statement, query_timeout: writeTimeoutMs } as pg.QueryConfig);
      } finally {
        pendingWrites -= 1;
        forget(statement.values);
      }
    },
    async projectedSeq() {
      const [row] = await all({ text: PROJECTOR_POSITION_SQL, params: [] });
      return row ? Number(row.seq) : 0;
    },
    get pendingWrites() {
      return pendingWrites;
    },
    async sizeBytes() {
      const [row] = await all({
        text: "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'",
        params: [],
      });
      return Number(row?.bytes ?? 0);
    },
    async saveSnapshot(snapshot) {
      const values = [snapshot.seq, snapshot.timeMs, snapshot.body];
      pendingWrites += 1;
      try {
        await run(writer, {
          text:
            'INSERT INTO snapshots (seq, time_ms, body) VALUES ($1, $2, $3) ' +
            'ON CONFLICT (seq) DO UPDATE SET time_ms = EXCLUDED.time_ms, body = EXCLUDED.body',
          values,
        });
      } finally {
        pendingWrites -= 1;
        forget(values);
      }
      const keep = Math.max(1, retention.snapshots);
      await run(writer, { text: numbered(RETENTION_SQL.trimSnapshots), values: [keep - 1] });
      await pruneJournal(pruning, retention);
      // The deleted rows' space is reused once vacuumed: done here, not left to autovacuum,
      // which may be off (or slow to come), so that the journal stays bounded either way.
      await run(writer, { text: 'VACUUM journal, snapshots' });
    },
    // One transaction on the snapshot connection: TRUNCATE every table, then the entries as
    // one append. The next pipelined append checks the last of them (`lastSent`).
    async replaceAll(entries) {
      const rows = replacementRowsOf(entries);
      const statement = batchStatement(rows, undefined, options.fence?.() ?? undefined);
      const client = await writer.connect();
      try {
        await client.query('BEGIN');
        await client.query(`TRUNCATE ${storedTableNames().join(', ')}`);
        if (statement) await client.query(statement);
        await client.query('COMMIT');
        client.release();
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release(true);
        throw error;
      } finally {
        forget(statement?.values);
      }
      refusing = null;
      lastSent = lastJournalRecord(rows);
    },
    // Reads (bills, orders, fills, …) are shared with SQLite: add new ones in sql-reads.ts.
    ...sqlReads(all),
    async query(text, params = []) {
      return (await run(reader, { text: numbered(text), values: params })).rows;
    },
    settingsAdvice() {
      return settingsAdvice(async (text) => (await run(reader, { text })).rows);
    },
    async explain(sql, explainOptions = {}) {
      const verb = explainOptions.analyze ? 'EXPLAIN (ANALYZE, COSTS OFF)' : 'EXPLAIN (COSTS OFF)';
      const rows = await all({ text: `${verb} ${sql.text}`, params: sql.params });
      return rows.map((row) => String(row['QUERY PLAN']));
    },
    async close() {
      if (closed) return;
      closed = true;
      const connection = appender;
      appender = null;
      await Promise.all([
        connection?.then((client) => client.end()).catch(() => undefined),
        writer.end(),
        reader.end(),
      ]);
    },
  };
}
