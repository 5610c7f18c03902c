// The SQLite checkpointer thread, started by the writer thread: copies committed pages from
// the WAL into the database file (PRAGMA wal_checkpoint(PASSIVE)) on a connection of its own,
// every BUSY_INTERVAL_MS while commits arrive. A passive checkpoint never waits for the writer
// and the writer never waits for it, so commits no longer stop for SQLite's automatic
// checkpoint (every 1,000 WAL pages, in the committing thread: with its fsync of the database
// file, the largest stall of a commit under steady load; docs/persistence.md). Plain
// JavaScript, like the writer thread.
//
// Under a light load it waits until the oldest commit not yet copied is LIGHT_WAIT_MS old: an
// idle server's commits (the price feed's and the liquidity provider's, two or three a second)
// touch the same pages again and again (the journal's last page, the candles', the orders'
// indexes), which are then copied into the database file once instead of once per commit. A
// load is busy once BUSY_COMMITS commits are waiting, and stays busy until BUSY_GAP_MS pass
// without a commit; while busy it checkpoints as soon as a tick sees a commit, as it always
// did. Nothing else changes: a commit is durable in the WAL either way.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

// Every 10 ms, not 50: short checkpoints keep the WAL small and let the writer restart it
// from the beginning more often. Same-time A/B at 50,000 orders/s (docs/persistence.md): p99
// 9.7 -> 5.4 ms, the writer's CPU per order a little lower, the closed loop no slower.
const BUSY_INTERVAL_MS = 10;
// While nothing is committed, or too little to checkpoint yet, the wait doubles up to this: an
// idle server's checkpointer woke 100 times a second for 2% of a core; backing off, about 0.2%.
const IDLE_INTERVAL_MS = 160;
const BUSY_COMMITS = 16;
const BUSY_GAP_MS = 1_000;
const LIGHT_WAIT_MS = 2_000;

const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// Changes whenever another connection (the writer) commits.
const dataVersion = db.prepare('PRAGMA data_version').pluck();
/** The writer thread's count of its commits (an Int32Array on shared memory). */
const commits = workerData.commits;
const committed = () => Atomics.load(commits, 0);
/** The data_version whose commits are all in the database file. */
let checkpointedVersion = -1;
/** The commit count when the last checkpoint started. */
let committedAtCheckpoint = committed();
/** When a commit not yet checkpointed was first seen (null: none). */
let pendingSinceMs = null;
let lastVersion = -1;
let lastChangeMs = 0;
/** Checkpointing as soon as a tick sees a commit, while commits keep coming. */
let busy = false;
let intervalMs = BUSY_INTERVAL_MS;

/** Whether the commits not yet checkpointed are due: a busy load, or the oldest old enough. */
function due(nowMs) {
  if (busy || committed() - committedAtCheckpoint >= BUSY_COMMITS) return (busy = true);
  return nowMs - pendingSinceMs >= LIGHT_WAIT_MS;
}

function checkpointNow(version) {
  committedAtCheckpoint = committed();
  const { log, checkpointed } = checkpoint.get();
  // A reader's snapshot can hold frames back: retry them on the next tick.
  if (log === checkpointed) {
    checkpointedVersion = version;
    pendingSinceMs = null;
  }
}

function tick() {
  try {
    const version = dataVersion.get();
    const nowMs = Date.now();
    if (version !== lastVersion) {
      lastVersion = version;
      lastChangeMs = nowMs;
    }
    if (busy && nowMs - lastChangeMs >= BUSY_GAP_MS) busy = false;
    if (version === checkpointedVersion) pendingSinceMs = null;
    else pendingSinceMs ??= nowMs;
    if (pendingSinceMs !== null && due(nowMs)) {
      intervalMs = BUSY_INTERVAL_MS;
      checkpointNow(version);
    } else {
      intervalMs = Math.min(IDLE_INTERVAL_MS, intervalMs * 2);
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
