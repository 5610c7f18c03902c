/**
 * Store selection: PostgreSQL when a database URL is configured (BOURSE_DATABASE_URL),
 * otherwise the SQLite file bourse.db in the data directory (the default).
 *
 * The SQLite files are private (0600): the file is created so before SQLite opens it, and
 * SQLite gives its -wal and -shm files the database file's mode. Files an older bourse made
 * with the umask's mode lose their group and other bits here.
 */
import { join } from 'node:path';
import { createPrivateFile, tightenToPrivate } from '../security/private-files.ts';
import type { Store } from '../ports/store.ts';
import { openPostgresStore, type PostgresStore } from './postgres/postgres-store.ts';
import type { RetentionPolicy } from './retention.ts';
import type { Fence } from './postgres/batch-write.ts';
import { openSqliteStore, type SqliteStore } from './sqlite/sqlite-store.ts';

export type AnyStore = SqliteStore | PostgresStore;

export interface StoreSettings {
  dataDir: string;
  databaseUrl: string | undefined;
  /** SQLite: writes in a writer thread (default) or inline on the event loop. */
  sqliteWriter?: 'thread' | 'inline';
  onError?: (error: unknown) => void;
  /** What a saved snapshot lets go of (persistence/retention.ts). */
  retention?: RetentionPolicy;
  /** PostgreSQL, a cluster leader: the fencing token each append carries (src/cluster). */
  fence?: () => Fence | null;
}

export function sqliteFileOf(dataDir: string): string {
  return join(dataDir, 'bourse.db');
}

export async function openStore(settings: StoreSettings): Promise<AnyStore & Store> {
  if (settings.databaseUrl) {
    return openPostgresStore(settings.databaseUrl, {
      ...(settings.onError ? { onError: settings.onError } : {}),
      ...(settings.retention ? { retention: settings.retention } : {}),
      ...(settings.fence ? { fence: settings.fence } : {}),
    });
  }
  const file = sqliteFileOf(settings.dataDir);
  createPrivateFile(file);
  for (const path of [file, `${file}-wal`, `${file}-shm`]) tightenToPrivate(path);
  return openSqliteStore(file, {
    writer: settings.sqliteWriter ?? 'thread',
    ...(settings.retention ? { retention: settings.retention } : {}),
  });
}
