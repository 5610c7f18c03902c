/**
 * Private files (mode 0600): the server key, credentials.json, the store's SQLite files.
 *
 * Invariants: `writePrivateFile` goes through a temporary file, an fsync and a rename, so a
 * reader never sees half a file and the mode is 0600 even where an older file had other bits
 * (open()'s mode applies only to a file it creates, and the umask masks it).
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';

/** Writes `text` to `file` with mode 0600, atomically (temporary file, fsync, rename). */
export function writePrivateFile(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // The mode given to open() is masked by the umask and ignored for an existing file.
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  syncDirectory(dirname(file));
}

/** Makes a rename in `dir` durable; not possible everywhere (Windows), where it is skipped. */
function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a directory; the rename is then as durable as they make it.
  } finally {
    closeSync(fd);
  }
}

/**
 * Takes group and other bits off `file` if it exists (files an older bourse made 0644). Only
 * a file's owner may change its mode: one this process may write but does not own keeps the
 * mode its owner gave it.
 */
export function tightenToPrivate(file: string): void {
  if (!existsSync(file)) return;
  if ((statSync(file).mode & 0o077) === 0) return;
  try {
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
}

/** Creates `file` empty with mode 0600 if it does not exist (SQLite then keeps that mode). */
export function createPrivateFile(file: string): void {
  if (existsSync(file)) return;
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
}
