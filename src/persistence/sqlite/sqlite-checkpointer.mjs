// The SQLite checkpointer thread, started by the writer thread: copies committed pages from
// the WAL into the database file (PRAGMA wal_checkpoint(PASSIVE)) on a connection of its own,
// every BUSY_INTERVAL_MS while commits arrive. A passive checkpoint never waits for the writer
// and the writer never waits for it, so commits no longer stop for SQLite's automatic
// checkpoint (every 1,000 WAL pages, in the committing thread: with its fsync of the database
// file, the largest stall of a commit under steady load; docs/persistence.md). Plain
// JavaScript, like the writer thread.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

// Every 10 ms, not 50: short checkpoints keep the WAL small and let the writer restart it
// from the beginning more often. Same-time A/B at 50,000 orders/s (docs/persistence.md): p99
// 9.7 -> 5.4 ms, the writer's CPU per order a little lower, the closed loop no slower.
const BUSY_INTERVAL_MS = 10;
// While nothing is committed the wait doubles up to this: an idle server's checkpointer woke
// 100 times a second for 2% of a core; backing off, about 0.2%.
const IDLE_INTERVAL_MS = 160;

const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// Changes whenever another connection (the writer) commits.
const dataVersion = db.prepare('PRAGMA data_version').pluck();
/** The data_version whose commits are all in the database file. */
let checkpointedVersion = -1;
let intervalMs = BUSY_INTERVAL_MS;

function tick() {
  try {
    const version = dataVersion.get();
    if (version === checkpointedVersion) {
      intervalMs = Math.min(IDLE_INTERVAL_MS, intervalMs * 2);
    } else {
      intervalMs = BUSY_INTERVAL_MS;
      const { log, checkpointed } = checkpoint.get();
      // A reader's snapshot can hold frames back: retry them on the next tick.
      if (log === checkpointed) checkpointedVersion = version;
    }
  } catch {
    // A failed checkpoint (disk full, I/O error) leaves the WAL as it is; the next one retries,
    // and the writer's own fallback checkpoint bounds the WAL meanwhile.
    intervalMs = BUSY_INTERVAL_MS;
  }
  timer = setTimeout(tick, intervalMs);
}

let timer = setTimeout(tick, intervalMs);

parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearTimeout(timer);
  db.close();
  parentPort.close();
});
