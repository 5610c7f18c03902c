/**
 * One server per data directory. Two servers writing one store corrupt it (the first then
 * fails on `UNIQUE constraint failed: journal.seq`), so the second is refused at start.
 *
 * How: an exclusive SQLite lock on `bourse.lock` in the directory, held by an open connection
 * for the server's life. SQLite takes it with the operating system's file locks (fcntl on
 * POSIX, LockFileEx on Windows), which the kernel drops when the process ends however it
 * ends, SIGKILL included: a stale file never blocks a start, and no process id is guessed
 * at. SQLite also refuses a second connection of the same process, so two servers started
 * by one test process are refused alike. Beside it, `bourse.pid` says who holds the lock
 * (pid, host, start time) for the refusal message; it is informational only, rewritten by
 * each holder and removed on a clean stop. `bourse.lock` itself is never removed: deleting
 * a lock file while another process opens it would let a third lock a fresh one.
 *
 * Limits: file locks on network file systems (NFS, SMB) are only as good as the server's
 * lock support; keep the data directory on a local disk.
 */
import Database from 'better-sqlite3';
import { readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createPrivateFile, writePrivateFile } from '../security/private-files.ts';

export interface DataDirLock {
  /** Drops the lock (idempotent). */
  release(): void;
}

interface Holder {
  pid: number;
  host: string;
  startedAt: string;
}

function describeHolder(pidFile: string): string {
  try {
    const holder = JSON.parse(readFileSync(pidFile, 'utf8')) as Partial<Holder>;
    if (typeof holder.pid !== 'number') return 'another bourse process';
    const host = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : '';
    const since = holder.startedAt ? `, started ${holder.startedAt}` : '';
    return `another bourse process (pid ${holder.pid}${host}${since})`;
  } catch {
    return 'another bourse process (its pid is not recorded)';
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** Takes the data directory's lock, or throws naming the directory and the process holding it. */
export function lockDataDir(dir: string): DataDirLock {
  const lockFile = join(dir, 'bourse.lock');
  const pidFile = join(dir, 'bourse.pid');
  createPrivateFile(lockFile);
  const db = new Database(lockFile, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    if (!isBusy(error)) throw error;
    throw new Error(
      `BOURSE_DATA_DIR ${dir} is in use by ${describeHolder(pidFile)}: two servers on one data ` +
        'directory corrupt its store. Stop the other server first, or give this one its own BOURSE_DATA_DIR',
    );
  }
  const holder: Holder = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString() };
  writePrivateFile(pidFile, `${JSON.stringify(holder)}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      rmSync(pidFile, { force: true });
      db.close();
    },
  };
}
