/**
 * `bourse-admin backup`: a consistent copy of a store, taken while the server runs (or not),
 * with what a restored server needs beside it: the server key that decrypts the stored API
 * secrets, and credentials.json. Layout of a backup directory:
 *
 *   manifest.json        what it holds, every file's size and SHA-256, the recovered state
 *   bourse.db            the SQLite store (SQLite's online backup API), or
 *   tables/*.jsonl.gz    the PostgreSQL store's tables (one REPEATABLE READ transaction)
 *   server.key           unless BOURSE_SERVER_KEY holds the key (then keep that yourself)
 *   credentials.json     if the data directory has one
 *
 * Before the manifest is written the backup is recovered as the server would recover it, from
 * its own files: a backup that is written is known to restore.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteFileOf } from '../open-store.ts';
import { recoverSqliteFile, recoverTableFiles, type RecoveredBackup } from './backup-recovery.ts';
import { MANIFEST_FILE, writeManifest, type Manifest } from './manifest.ts';
import { exportPostgres } from './postgres-backup.ts';
import { backupSqliteFile, sqliteRowCounts, sqliteSchemaVersions, syncFile } from './sqlite-backup.ts';
import { appliedTables } from './tables.ts';

/** Where a store is, as the server is told: its data directory and, for PostgreSQL, the URL. */
export interface StoreAt {
  dataDir: string;
  databaseUrl: string | undefined;
}

export interface BackupOptions {
  /** BOURSE_SERVER_KEY is set: the key is not in the data directory, and not in the backup. */
  serverKeyInEnvironment: boolean;
}

export const DATA_DIR_FILES = ['server.key', 'credentials.json'] as const;

interface StoreCopy extends RecoveredBackup {
  store: Manifest['store'];
  schemaVersions: number[];
  rows: Record<string, number>;
  files: string[];
}

function emptyDirectory(dir: string): void {
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty: a backup goes into a new or empty directory`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

async function copySqlite(dataDir: string, dir: string): Promise<StoreCopy> {
  const source = sqliteFileOf(dataDir);
  if (!existsSync(source)) throw new Error(`there is no SQLite store at ${source}`);
  const file = join(dir, 'bourse.db');
  await backupSqliteFile(source, file);
  const db = new Database(file);
  let schemaVersions: number[];
  let rows: Record<string, number>;
  try {
    // A rollback-journal file: reading it later (recovery, a restore) leaves no -wal or -shm
    // beside it. A restored server turns WAL on again when it opens the store.
    db.pragma('journal_mode = DELETE');
    schemaVersions = sqliteSchemaVersions(db);
    rows = sqliteRowCounts(db, appliedTables(schemaVersions));
  } finally {
    db.close();
  }
  syncFile(file);
  const recovered = await recoverSqliteFile(file);
  return { store: 'sqlite', schemaVersions, rows, files: ['bourse.db'], ...recovered };
}

async function copyPostgres(url: string, dir: string): Promise<StoreCopy> {
  mkdirSync(join(dir, 'tables'), { mode: 0o700 });
  const { schemaVersions, rows } = await exportPostgres(url, dir);
  for (const table of Object.keys(rows)) syncFile(join(dir, 'tables', `${table}.jsonl.gz`));
  const recovered = await recoverTableFiles(dir);
  const files = Object.keys(rows).map((table) => `tables/${table}.jsonl.gz`);
  return { store: 'postgres', schemaVersions, rows, files, ...recovered };
}

/** Copies the data directory's key and credentials into the backup; which were copied. */
function copyDataDirFiles(dataDir: string, dir: string, options: BackupOptions): string[] {
  const copied: string[] = [];
  for (const name of DATA_DIR_FILES) {
    if (name === 'server.key' && options.serverKeyInEnvironment) continue;
    const from = join(dataDir, name);
    if (!existsSync(from)) continue;
    copyFileSync(from, join(dir, name));
    syncFile(join(dir, name));
    copied.push(name);
  }
  return copied;
}

/** Takes a backup of the store at `source` into `dir` (new or empty); its manifest. */
export async function takeBackup(source: StoreAt, dir: string, options: BackupOptions): Promise<Manifest> {
  emptyDirectory(dir);
  const copy = source.databaseUrl
    ? await copyPostgres(source.databaseUrl, dir)
    : await copySqlite(source.dataDir, dir);
  const dataFiles = copyDataDirFiles(source.dataDir, dir, options);
  const serverKey = options.serverKeyInEnvironment
    ? 'environment'
    : dataFiles.includes('server.key')
      ? 'file'
      : 'none';
  const manifest = await writeManifest(
    dir,
    {
      createdAt: new Date().toISOString(),
      store: copy.store,
      schemaVersions: copy.schemaVersions,
      lastSeq: copy.lastSeq,
      snapshotSeq: copy.snapshotSeq,
      stateHash: copy.stateHash,
      rows: copy.rows,
      serverKey,
    },
    [...copy.files, ...dataFiles],
  );
  syncFile(join(dir, MANIFEST_FILE));
  syncFile(dir);
  return manifest;
}
