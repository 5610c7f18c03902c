/**
 * Backup and restore of the SQLite store.
 *
 * Backup: SQLite's online backup API (better-sqlite3 `backup`) on a read-only connection of its
 * own, copying every page in one step, so the copy is one read transaction's view of the
 * database: consistent while the server goes on committing (WAL: the writer never waits for a
 * reader, nor the reader for it). The copy is a complete store file, `bourse.db`.
 *
 * In use: whether another connection has the file open (a server running on the data
 * directory), by SQLite's own locks: every connection to a WAL database holds a shared lock
 * on it while open, so an exclusive lock is refused (at once: no busy timeout) while one does.
 * A server that starts after the check is not seen: that is the data directory lock's job.
 */
import { chmodSync, closeSync, fsyncSync, openSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Table } from '../schema.ts';
import { openSqliteStore } from '../sqlite/sqlite-store.ts';
import { BOURSE_TABLES } from './tables.ts';
import type { TableRows } from './table-files.ts';

/** Copies the SQLite store `source` into the new file `target`, consistent while `source` is written. */
export async function backupSqliteFile(source: string, target: string): Promise<void> {
  const db = new Database(source, { readonly: true, fileMustExist: true });
  try {
    // The first step only counts pages; the second copies all of them, in one read transaction.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  // It holds what the data directory's file holds (encrypted API secrets among it): owner only.
  chmodSync(target, 0o600);
  syncFile(target);
}

/** Whether another connection, in this process or another, has the SQLite file open. */
export function sqliteInUse(file: string): boolean {
  const db = new Database(file, { fileMustExist: true, timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') return true;
    throw error;
  } finally {
    db.close();
  }
}

function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Whether any bourse table of the SQLite file holds a row. */
export function sqliteHoldsData(file: string): boolean {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // The projector's position row is written on open, data or not.
    return BOURSE_TABLES.some(
      (table) =>
        table.name !== 'projector_position' &&
        tableExists(db, table.name) &&
        db.prepare(`SELECT 1 FROM ${table.name} LIMIT 1`).get() !== undefined,
    );
  } finally {
    db.close();
  }
}

export function sqliteSchemaVersions(db: Database.Database): number[] {
  if (!tableExists(db, 'schema_migrations')) return [];
  return (
    db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]
  ).map((row) => row.version);
}

export function sqliteRowCounts(db: Database.Database, tables: readonly Table[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table.name] = tableExists(db, table.name)
      ? (db.prepare(`SELECT COUNT(*) AS n FROM ${table.name}`).get() as { n: number }).n
      : 0;
  }
  return counts;
}

/** Creates a store file at `file` (which must not exist) holding `sources`' rows; rows per table. */
export async function importSqlite(
  file: string,
  sources: AsyncIterable<TableRows>,
): Promise<Record<string, number>> {
  await openSqliteStore(file).close();
  const db = new Database(file);
  const counts: Record<string, number> = {};
  try {
    // A new file nothing reads yet: it is synced once, whole, at the end.
    db.pragma('synchronous = OFF');
    // Opening gave the new store a projector position; the backup's own replaces it (a backup
    // without one gets the journal's end on the next open, as any store written before it).
    db.exec('DELETE FROM projector_position');
    for await (const rows of sources) {
      const insert = db.prepare(
        `INSERT INTO ${rows.table} (${rows.columns.join(', ')}) VALUES (${rows.columns.map(() => '?').join(', ')})`,
      );
      const load = db.transaction((chunk: unknown[][]) => {
        for (const row of chunk) insert.run(row);
      });
      counts[rows.table] = 0;
      for await (const chunk of rows.chunks) {
        load(chunk);
        counts[rows.table] = (counts[rows.table] ?? 0) + chunk.length;
      }
    }
  } finally {
    db.close();
  }
  syncFile(file);
  return counts;
}

export function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
