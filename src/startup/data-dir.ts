/**
 * The data directory (BOURSE_DATA_DIR) and the private files in it.
 *
 * Invariants: the directory is created 0700, since it holds the server key and
 * credentials.json; a directory that already exists keeps its mode (the operator chose it).
 * It is checked writable before anything is made in it, so a start that cannot use it stops
 * with a message naming the variable instead of SQLite's "unable to open database file".
 * The files in it are private (security/private-files.ts).
 */
import { accessSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { userInfo } from 'node:os';

/** The user this process runs as, for messages ("uid 1000 (alice)"). */
function currentUser(): string {
  const uid = process.getuid?.();
  if (uid === undefined) return 'this user';
  try {
    return `uid ${uid} (${userInfo().username})`;
  } catch {
    return `uid ${uid}`;
  }
}

function codeOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOTDIR: 'a part of the path is a file, not a directory',
  EEXIST: 'it exists and is not a directory',
  ENOSPC: 'the disk is full',
};

function reason(error: unknown): string {
  const code = codeOf(error);
  return REASONS[code] ? `${REASONS[code]}, ${code}` : code;
}

/** Creates the data directory (0700) if missing and checks that this process can write in it. */
export function prepareDataDir(dir: string): void {
  const fix = `give ${currentUser()} write access to it, or set BOURSE_DATA_DIR to a directory it can write`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new Error(`BOURSE_DATA_DIR ${dir} cannot be created (${reason(error)}): ${fix}`, { cause: error });
  }
  if (!statSync(dir).isDirectory()) {
    throw new Error(`BOURSE_DATA_DIR ${dir} is a file, not a directory: set BOURSE_DATA_DIR to a directory`);
  }
  try {
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new Error(`BOURSE_DATA_DIR ${dir} is not writable (${reason(error)}): ${fix}`, { cause: error });
  }
}

/** The files a server writes in the data directory (those it only reads are checked when read). */
const WRITTEN_FILES = ['bourse.db', 'bourse.db-wal', 'bourse.db-shm', 'credentials.json', 'bourse.lock'];

/**
 * Checks that the files already in the data directory can be written by this process: one
 * left by another user (a start as root, then as a service user) would otherwise fail deep
 * in SQLite ("attempt to write a readonly database").
 */
export function checkDataFilesWritable(dir: string): void {
  for (const name of WRITTEN_FILES) {
    const file = join(dir, name);
    if (!existsSync(file)) continue;
    try {
      accessSync(file, constants.R_OK | constants.W_OK);
    } catch (error) {
      throw new Error(
        `BOURSE_DATA_DIR ${dir}: ${name} is not writable (${reason(error)}): give ${currentUser()} ` +
          'ownership of the data directory and its files (e.g. chown -R), or start bourse as their owner',
        { cause: error },
      );
    }
  }
}
