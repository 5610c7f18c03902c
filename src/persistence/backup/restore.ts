/**
 * `bourse-admin restore`: a backup (backup.ts) into a data directory and store that a server
 * then starts from, with every account, order, balance and key as they were.
 *
 * Refused, before anything is written: a damaged or incomplete backup (manifest.ts), one
 * taken by a newer bourse; a target a server has open (SQLite's locks, PostgreSQL sessions
 * named `bourse`: sqlite-backup.ts, postgres-backup.ts); and, unless `replace` is given, a
 * target whose store holds any row or whose server key differs from the backup's. A backup
 * of either store restores into either: SQLite into SQLite is a copy of the file, the rest
 * goes table by table. The new SQLite file is built beside the old one and renamed over it
 * (the old WAL removed first, so that it is never replayed onto the new file); PostgreSQL is
 * loaded in one transaction. Then the restored store is recovered as a server would and must
 * give the backup's sequence number and state hash.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stateHash } from '../../engine/state-hash.ts';
import { recover } from '../../runtime/recovery.ts';
import { openStore, sqliteFileOf } from '../open-store.ts';
import { DATA_DIR_FILES, type StoreAt } from './backup.ts';
import { readManifest, type Manifest } from './manifest.ts';
import { importPostgres, postgresHoldsData, postgresServerSessions } from './postgres-backup.ts';
import { importSqlite, sqliteHoldsData, sqliteInUse, syncFile } from './sqlite-backup.ts';
import { readTableFile, sqliteTableRows, tableFile, type TableRows } from './table-files.ts';
import { appliedTables } from './tables.ts';

export interface RestoreReport {
  manifest: Manifest;
  store: 'sqlite' | 'postgres';
  lastSeq: number;
  stateHash: string;
}

/** The backup's tables as rows, whichever store it was taken from. */
async function* tablesOf(dir: string, manifest: Manifest): AsyncIterable<TableRows> {
  const tables = appliedTables(manifest.schemaVersions);
  if (manifest.store === 'postgres') {
    for (const table of tables) yield await readTableFile(tableFile(dir, table.name));
    return;
  }
  const db = new Database(join(dir, 'bourse.db'), { readonly: true, fileMustExist: true });
  try {
    for (const table of tables) yield sqliteTableRows(db, table);
  } finally {
    db.close();
  }
}

function differentKey(dir: string, dataDir: string): boolean {
  const ours = join(dataDir, 'server.key');
  const theirs = join(dir, 'server.key');
  if (!existsSync(ours) || !existsSync(theirs)) return false;
  return readFileSync(ours, 'utf8').trim() !== readFileSync(theirs, 'utf8').trim();
}

/** Throws unless the target may be written: no server on it, and empty unless `replace`. */
async function checkTarget(dir: string, target: StoreAt, replace: boolean): Promise<void> {
  const where = target.databaseUrl ? 'the PostgreSQL database' : sqliteFileOf(target.dataDir);
  if (target.databaseUrl) {
    const sessions = await postgresServerSessions(target.databaseUrl);
    if (sessions > 0)
      throw new Error(`a bourse server is connected to ${where} (${sessions} sessions): stop it first`);
  } else if (existsSync(where) && sqliteInUse(where)) {
    throw new Error(`${where} is open in another process (a bourse server?): stop it first`);
  }
  if (replace) return;
  const holdsData = target.databaseUrl
    ? await postgresHoldsData(target.databaseUrl)
    : existsSync(where) && sqliteHoldsData(where);
  if (holdsData)
    throw new Error(`${where} is not empty: restore into an empty store, or pass --force to replace it`);
  if (differentKey(dir, target.dataDir)) {
    throw new Error(
      `${join(target.dataDir, 'server.key')} differs from the backup's: pass --force to replace it`,
    );
  }
}

async function restoreSqlite(dir: string, manifest: Manifest, dataDir: string): Promise<void> {
  const file = sqliteFileOf(dataDir);
  const building = `${file}.restoring`;
  rmSync(building, { force: true });
  if (manifest.store === 'sqlite') {
    copyFileSync(join(dir, 'bourse.db'), building);
    syncFile(building);
  } else {
    checkRows(manifest, await importSqlite(building, tablesOf(dir, manifest)));
  }
  for (const stale of [`${file}-wal`, `${file}-shm`, file]) rmSync(stale, { force: true });
  renameSync(building, file);
}

function checkRows(manifest: Manifest, loaded: Record<string, number>): void {
  for (const [table, rows] of Object.entries(manifest.rows)) {
    if ((loaded[table] ?? 0) !== rows) {
      throw new Error(`restoring ${table} loaded ${loaded[table] ?? 0} rows, the backup holds ${rows}`);
    }
  }
}

function restoreDataDirFiles(dir: string, dataDir: string): void {
  for (const name of DATA_DIR_FILES) {
    const from = join(dir, name);
    if (!existsSync(from)) continue;
    const to = join(dataDir, name);
    copyFileSync(from, `${to}.restoring`);
    syncFile(`${to}.restoring`);
    renameSync(`${to}.restoring`, to);
  }
}

/** Restores the backup in `dir` into `target`; what the restored store recovers to. */
export async function restoreBackup(
  dir: string,
  target: StoreAt,
  options: { replace: boolean },
): Promise<RestoreReport> {
  const manifest = await readManifest(dir);
  mkdirSync(target.dataDir, { recursive: true, mode: 0o700 });
  await checkTarget(dir, target, options.replace);
  if (target.databaseUrl) {
    checkRows(manifest, await importPostgres(target.databaseUrl, tablesOf(dir, manifest), options.replace));
  } else {
    await restoreSqlite(dir, manifest, target.dataDir);
  }
  restoreDataDirFiles(dir, target.dataDir);
  syncFile(target.dataDir);
  const store = await openStore({ ...target, sqliteWriter: 'inline' });
  try {
    const recovered = await recover(store);
    const hash = stateHash(recovered.exchange.state);
    if (recovered.seq !== manifest.lastSeq || hash !== manifest.stateHash) {
      throw new Error(
        `the restored store recovers to record ${recovered.seq} (state ${hash}), ` +
          `the backup to ${manifest.lastSeq} (state ${manifest.stateHash})`,
      );
    }
    return { manifest, store: store.kind, lastSeq: recovered.seq, stateHash: hash };
  } finally {
    await store.close();
  }
}
