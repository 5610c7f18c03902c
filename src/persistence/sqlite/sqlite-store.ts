/**
 * SQLite store (better-sqlite3, WAL, synchronous=FULL): the embedded default.
 *
 * One `append` is one transaction and one fsync, however many commands it carries: the
 * sequencer calls it once per event-loop turn (group commit). Each journal row carries a
 * CRC-32 of its body; recovery refuses a row whose checksum does not match. Tables, rows and
 * queries come from persistence/schema.ts, projection.ts and queries.ts, shared with every
 * other store.
 */
import Database from 'better-sqlite3';
import { crc32 } from 'node:zlib';
import type { Command } from '../../domain/commands.ts';
import type { JournalEntry, Snapshot, Store } from '../../ports/store.ts';
import { decode, encode } from '../codec.ts';
import { rowsOf, type RowWrite, type Value } from '../projection.ts';
import {
  billOf,
  billsSql,
  fillOf,
  fillsSql,
  fundingOf,
  fundingSql,
  orderOf,
  orderSql,
  ordersSql,
  type Sql,
} from '../queries.ts';
import { ddl, MIGRATIONS, tableOf } from '../schema.ts';

export class CorruptJournalError extends Error {}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_ms INTEGER)');
  const rows = db.prepare('SELECT version FROM schema_migrations').all() as { version: number }[];
  const applied = new Set(rows.map((row) => row.version));
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.version)) continue;
    db.transaction(() => {
      for (const table of migration.tables) for (const statement of ddl(table, 'sqlite')) db.exec(statement);
      db.prepare('INSERT INTO schema_migrations (version, applied_ms) VALUES (?, ?)').run(
        migration.version,
        Date.now(),
      );
    })();
  }
}

export function openSqliteStore(file: string): Store {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
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
  const write = (write: RowWrite) => {
    const columns = tableOf(write.table).columns.map(([name]) => name);
    const verb = write.mode === 'upsert' ? 'INSERT OR REPLACE' : 'INSERT';
    const text = `${verb} INTO ${write.table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
    prepared(text).run(...columns.map((column) => write.row[column] as Value));
  };
  const appendAll = db.transaction((entries: readonly JournalEntry[]) => {
    for (const entry of entries) {
      const body = encode(entry.command);
      write({
        table: 'journal',
        mode: 'insert',
        row: {
          seq: entry.seq,
          time_ms: entry.command.timeMs,
          type: entry.command.type,
          body,
          checksum: crc32(body),
        },
      });
      for (const event of entry.events) for (const row of rowsOf(event)) write(row);
    }
  });

  return {
    async latestSnapshot(): Promise<Snapshot | null> {
      const row = prepared('SELECT seq, time_ms, body FROM snapshots ORDER BY seq DESC LIMIT 1').get() as
        { seq: number; time_ms: number; body: string } | undefined;
      return row ? { seq: row.seq, timeMs: row.time_ms, body: row.body } : null;
    },
    async *journalAfter(seq: number) {
      const rows = db
        .prepare('SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq')
        .iterate(seq);
      for (const row of rows as Iterable<{ seq: number; body: string; checksum: number }>) {
        if (crc32(row.body) !== row.checksum) {
          throw new CorruptJournalError(
            `journal record ${row.seq} fails its checksum; refusing to replay the tail`,
          );
        }
        yield { seq: row.seq, command: decode<Command>(row.body) };
      }
    },
    async lastSeq() {
      const row = prepared('SELECT MAX(seq) AS seq FROM journal').get() as { seq: number | null };
      return row.seq ?? 0;
    },
    async append(entries) {
      appendAll(entries);
    },
    async saveSnapshot(snapshot) {
      db.transaction(() => {
        write({
          table: 'snapshots',
          mode: 'upsert',
          row: { seq: snapshot.seq, time_ms: snapshot.timeMs, body: snapshot.body },
        });
        prepared('DELETE FROM snapshots WHERE seq < ?').run(snapshot.seq);
      })();
    },
    async bills(query) {
      return all(billsSql(query)).map(billOf);
    },
    async fundingRecords(uid, limit) {
      return all(fundingSql(uid, limit)).map(fundingOf);
    },
    async order(uid, reference) {
      const [row] = all(orderSql(uid, reference));
      return row ? orderOf(row) : null;
    },
    async orders(query) {
      return all(ordersSql(query)).map(orderOf);
    },
    async fills(query) {
      return all(fillsSql(query)).map(fillOf);
    },
    async close() {
      db.close();
    },
  };
}
