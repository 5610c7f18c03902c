/**
 * Recovery of a backup as the server would recover it (runtime/recovery.ts: the latest
 * snapshot, then every journal record after it, each record's checksum checked), from the
 * backup's own files and without writing to them: a SQLite backup's `bourse.db` read-only, or
 * the table files of a PostgreSQL one. Its sequence number and state hash go into the
 * manifest, so a backup is known to be restorable when it is taken, and a restore is
 * checked against them.
 */
import Database from 'better-sqlite3';
import { stateHash } from '../../engine/state-hash.ts';
import type { Snapshot } from '../../ports/store.ts';
import { recover, type RecoverySource } from '../../runtime/recovery.ts';
import { verifiedPrefix, type JournalRecord } from '../journal-pages.ts';
import { readTableFile, tableFile } from './table-files.ts';

export interface RecoveredBackup {
  lastSeq: number;
  snapshotSeq: number;
  stateHash: string;
}

async function recovered(source: RecoverySource): Promise<RecoveredBackup> {
  const { exchange, seq, snapshotSeq } = await recover(source);
  return { lastSeq: seq, snapshotSeq, stateHash: stateHash(exchange.state) };
}

const PAGE_ROWS = 4_096;

/** Recovers the SQLite store file `file`, opened read-only. */
export async function recoverSqliteFile(file: string): Promise<RecoveredBackup> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const page = db.prepare('SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq LIMIT ?');
    return await recovered({
      async latestSnapshot() {
        const row = db.prepare('SELECT seq, time_ms, body FROM snapshots ORDER BY seq DESC LIMIT 1').get() as
          { seq: number; time_ms: number; body: string } | undefined;
        return row ? { seq: row.seq, timeMs: row.time_ms, body: row.body } : null;
      },
      async *journalAfter(after: number) {
        for (let last = after; ;) {
          const rows = page.all(last, PAGE_ROWS) as Record<string, unknown>[];
          const { records, failure } = verifiedPrefix(rows);
          if (records.length > 0) yield records;
          if (failure) throw failure;
          if (rows.length < PAGE_ROWS) return;
          last = Number(rows[rows.length - 1]?.seq);
        }
      },
    });
  } finally {
    db.close();
  }
}

/** The rows of one table file as objects by column name. */
async function* tableObjects(dir: string, table: string): AsyncIterable<Record<string, unknown>[]> {
  const rows = await readTableFile(tableFile(dir, table));
  for await (const chunk of rows.chunks) {
    yield chunk.map((values) => {
      const row: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      rows.columns.forEach((column, index) => (row[column] = values[index]));
      return row;
    });
  }
}

/** Recovers the store held in the table files of `dir` (a PostgreSQL backup). */
export async function recoverTableFiles(dir: string): Promise<RecoveredBackup> {
  return recovered({
    async latestSnapshot() {
      let latest: Snapshot | null = null;
      for await (const chunk of tableObjects(dir, 'snapshots')) {
        for (const row of chunk) {
          const seq = Number(row.seq);
          if (!latest || seq > latest.seq)
            latest = { seq, timeMs: Number(row.time_ms), body: String(row.body) };
        }
      }
      return latest;
    },
    async *journalAfter(after: number): AsyncIterable<readonly JournalRecord[]> {
      for await (const chunk of tableObjects(dir, 'journal')) {
        const { records, failure } = verifiedPrefix(chunk.filter((row) => Number(row.seq) > after));
        if (records.length > 0) yield records;
        if (failure) throw failure;
      }
    },
  });
}
