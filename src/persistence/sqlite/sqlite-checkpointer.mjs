// The SQLite checkpointer thread, started by the writer thread: copies committed pages from
// the WAL into the database file (PRAGMA wal_checkpoint(PASSIVE)) on a connection of its own,
// every BUSY_INTERVAL_MS while commits arrive. A passive checkpoint never waits for the writer
// and the writer never waits for it, so commits no longer stop for SQLite's automatic
// checkpoint (every 1,000 WAL pages, in the committing thread: with its fsync of the database
// file, the largest stall of a commit under steady load; docs/persistence.md). Plain
// JavaScript, like the writer thread.
//
// Under a light load (fewer than BUSY_COMMITS commits since the last checkpoint) it waits
// until the oldest of them is LIGHT_WAIT_MS old: an idle server's commits (the price feed's
// and the liquidity provider's, a few a second) touch the same pages again and again (the
// journal's last page, the candles', the orders' indexes), which are then copied into the
// database file once instead of once per commit. Nothing else changes: a commit is durable in
// the WAL either way, and once commits come faster it checkpoints every BUSY_INTERVAL_MS as
// before, until a tick finds nothing new.
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
const LIGHT_WAIT_MS = 2_000;

const db = new Database(workerData.file);
db.pragma('busy_timeout = 5000');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// Changes whenever another connection (the writer) commits.
const dataVersion = db.prepare('PRAGMA data_version').pluck();
/** The writer thread's count of its commits (an Int32Array on shared memory), if it gave one. */
const commits = workerData.commits ?? null;
const committed = () => (commits ? Atomics.load(commits, 0) : Number.MAX_SAFE_INTEGER);
/** The data_version whose commits are all in the database file. */
let checkpointedVersion = -1;
/** The commit count when the last checkpoint started. */
let committedAtCheckpoint = committed();
/** When a commit not yet checkpointed was first seen (null: none). */
let pendingSinceMs = null;
/** Checkpointing every tick while commits keep coming. */
let busy = false;
let intervalMs = BUSY_INTERVAL_MS;

/** Whether the commits not yet checkpointed are due: many of them, or the oldest old enough. */
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
    if (version === checkpointedVersion) {
      busy = false;
      pendingSinceMs = null;
    }
    pendingSinceMs ??= version === checkpointedVersion ? null : nowMs;
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
