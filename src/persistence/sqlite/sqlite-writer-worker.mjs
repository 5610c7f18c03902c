// The SQLite writer thread: owns the store's write connection, so commits and their fsyncs
// never block the event loop that serves requests. Plain JavaScript on purpose: it runs
// without the TypeScript loader, and knows nothing of the schema — the main thread
// (sqlite-writer.ts) sends each statement once (a text, or an insert's multi-row template:
// statement-set.mjs) and then, per write, groups of rows: [statementIndex, rows], each row its
// values in the statement's column order.
// Messages are handled in order, each answered with its outcome. Appends that queued while
// the thread was busy (a commit's fsync) commit together: one transaction and one fsync for
// all of them (group commit across appends), all or none.
import { parentPort, receiveMessageOnPort, Worker, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { StatementSet } from './statement-set.mjs';

const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
// Statement journals (an INSERT OR REPLACE of several rows keeps one; on a store made before
// 2026-11-26 every multi-row INSERT does: schema.ts) stay in memory instead of spilling to a
// temporary file past 64 KiB: on the crossing body that was two extra pwrite calls per order.
db.pragma('temp_store = MEMORY');

// Checkpoints run in a thread of their own (sqlite-checkpointer.mjs); this connection
// checkpoints only if the WAL outgrows FALLBACK_CHECKPOINT_PAGES (64 MiB of 4 KiB pages), which
// bounds the WAL should the checkpointer fall behind or fail.
const FALLBACK_CHECKPOINT_PAGES = 16_384;
db.pragma(`wal_autocheckpoint = ${FALLBACK_CHECKPOINT_PAGES}`);
// Transactions committed on this connection, counted for the checkpointer (it waits for a few
// under a light load before copying their pages).
const commits = new Int32Array(new SharedArrayBuffer(4));
const checkpointer = new Worker(new URL('./sqlite-checkpointer.mjs', import.meta.url), {
  workerData: { file: workerData.file, commits },
});
checkpointer.on('error', () => {
  // Without it the fallback checkpoint keeps the WAL bounded.
});

const statements = new StatementSet(db);
// Writes in one transaction (all or nothing), each its groups: [statementIndex, values[][]][],
// in order.
const transaction = db.transaction((writes) => {
  for (const groups of writes) for (const [index, rows] of groups) statements.run(index, rows);
});
function write(writes) {
  transaction(writes);
  Atomics.add(commits, 0, 1);
}

// Appends (writes marked `chained`) may be queued several at a time: once one fails, every
// later one is refused unwritten until `resume`, so the journal never gets a gap.
let refusing = null;

/** Commits `appends` (each an append's groups) in one transaction. */
function append(appends) {
  if (refusing !== null) throw new Error(`an earlier append failed (${refusing}); refused until resumed`);
  try {
    write(appends);
  } catch (error) {
    refusing = String(error?.message ?? error);
    throw error;
  }
}

function handle(request) {
  if (request.statements) statements.add(request.statements);
  switch (request.op) {
    case 'write':
      // Appends (chained writes) go through handleQueued's runs, never here.
      write([request.groups]);
      return undefined;
    case 'resume':
      refusing = null;
      return undefined;
    case 'pragma':
      return db.pragma(request.text);
    case 'close':
      checkpointer.postMessage('close');
      db.close();
      return undefined;
    default:
      throw new Error(`unknown writer request ${request.op}`);
  }
}

function outcome(request, run) {
  try {
    return { id: request.id, ok: true, value: run() };
  } catch (error) {
    return { id: request.id, ok: false, message: String(error?.message ?? error), code: error?.code ?? '' };
  }
}

const isAppend = (request) => request.op === 'write' && request.chained === true;

/**
 * `first`, then every message already queued behind it, in order: a run of appends commits
 * as one; anything else is handled alone, between them.
 */
function handleQueued(first) {
  let next = first;
  while (next !== undefined) {
    if (!isAppend(next)) {
      const request = next;
      parentPort.postMessage(outcome(request, () => handle(request)));
      if (request.op === 'close') {
        parentPort.close();
        return;
      }
      next = receiveMessageOnPort(parentPort)?.message;
      continue;
    }
    const run = [next];
    next = receiveMessageOnPort(parentPort)?.message;
    while (next !== undefined && isAppend(next)) {
      run.push(next);
      next = receiveMessageOnPort(parentPort)?.message;
    }
    for (const request of run) if (request.statements) statements.add(request.statements);
    // Each answer says how many appends its transaction held (sqlite-writer.test.ts reads it).
    const result = outcome(run[0], () => {
      append(run.map((request) => request.groups));
      return run.length;
    });
    for (const request of run) parentPort.postMessage({ ...result, id: request.id });
  }
}

parentPort.on('message', handleQueued);
