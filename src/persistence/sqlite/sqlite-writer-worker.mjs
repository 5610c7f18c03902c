// The SQLite writer thread: owns the store's write connection, so commits and their fsyncs
// never block the event loop that serves requests. Plain JavaScript on purpose: it runs
// without the TypeScript loader, and knows nothing of the schema — the main thread
// (sqlite-writer.ts) sends each statement once (a text, or an insert's multi-row template:
// statement-set.mjs) and then, per write, groups of rows: [statementIndex, rows], each row its
// values in the statement's column order.
// Messages are handled in order, each answered with its outcome, except that appends go ahead
// of projection writes queued before them (answers wait for appends alone), and staged
// projection rows (`stage`) are kept as they arrive, unanswered, for a later projection write.
// Appends that queued while the thread was busy (a commit's fsync) commit together: one transaction and one
// fsync for all of them (group commit across appends), all or none.
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

// A projection write (the read models behind the journal) commits without its own fsync: it
// is rebuilt from the journal after a crash (the projector's position commits with its rows),
// and the next append's fsync makes it durable anyway, the WAL being written in order.
const syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
const syncFull = db.prepare('PRAGMA synchronous = FULL');
function project(groups) {
  syncNormal.run();
  try {
    write([groups]);
  } finally {
    syncFull.run();
  }
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

// Projection rows staged as their entries became durable (sqlite-writer.ts `stage`), oldest
// first: { from, seq, groups }, the rows of the entries from `from` to `seq`. A projection write
// `through` a sequence number writes those up to it, with the projector's position, in one
// transaction; the main thread keeps only the numbers (runtime/projector.ts).
let staged = [];

/** Refuses a projection write whose staged rows are not all here (a thread started since lost them). */
function stagedMissing(from, through) {
  return Object.assign(new Error(`the projection rows of entries ${from} to ${through} are not staged`), {
    code: 'STAGED_ROWS_MISSING',
  });
}

/**
 * The staged groups of entries `from` to `through`, one per statement with its rows in staging
 * order (fuller multi-row inserts), the inserting statements before the upserting ones: a key
 * is inserted only where it first appears, so a later entry's upsert of it must come after
 * (each group is [statement, rows, upserts]). Throws when any entry's rows are missing, so the
 * position never passes rows that were not written.
 */
function stagedGroups(from, through) {
  // Parts before `from` were written already (a write that failed on the way back).
  staged = staged.filter((part) => part.seq >= from);
  const inserts = new Map();
  const upserts = new Map();
  let next = from;
  for (const part of staged) {
    if (part.seq > through) break;
    if (part.from !== next) throw stagedMissing(from, through);
    next = part.seq + 1;
    for (const [index, rows, upsert] of part.groups) {
      const byIndex = upsert === 1 ? upserts : inserts;
      const merged = byIndex.get(index);
      if (merged === undefined) byIndex.set(index, rows.slice());
      else for (const row of rows) merged.push(row);
    }
  }
  if (next !== through + 1) throw stagedMissing(from, through);
  return [...inserts, ...upserts];
}

function handle(request) {
  if (request.statements) statements.add(request.statements);
  switch (request.op) {
    case 'write':
      // Appends (chained writes) go through handleQueued's runs, never here.
      if (request.projection === true && request.through !== undefined) {
        project(stagedGroups(request.from, request.through).concat(request.groups));
        staged = staged.filter((part) => part.seq > request.through);
      } else if (request.projection === true) project(request.groups);
      else write([request.groups]);
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
const isProjection = (request) => request.op === 'write' && request.projection === true;

/** Messages received and not yet handled, oldest first. */
const queued = [];
function receiveQueued() {
  for (
    let message = receiveMessageOnPort(parentPort);
    message !== undefined;
    message = receiveMessageOnPort(parentPort)
  )
    take(message.message);
}

/** A message received: staged rows are kept at once (no answer), anything else queued. */
function take(message) {
  if (message.op !== 'stage') return void queued.push(message);
  // Statements are numbered in the order they are sent: those of the requests queued first.
  for (const request of queued) {
    if (request.statements) statements.add(request.statements);
    delete request.statements;
  }
  if (message.statements) statements.add(message.statements);
  // Rows staged again from an entry on (after a restart of this thread, or the operator's
  // reset) replace those staged before for it and every later one.
  staged = staged.filter((part) => part.seq < message.from);
  staged.push({ from: message.from, seq: message.seq, groups: message.groups });
}

/**
 * Where the next run of appends starts: at the head, or behind projection writes only (the
 * projector's rows are of entries already durable, so an append may go first); -1 if none.
 * A projection write is passed once at most, so that under a closed loop (an append always
 * queued) the projector never starves until its lag holds the answers back. Anything else (a
 * snapshot, `resume`, `close`) keeps its place: appends never pass it.
 */
function appendsAt() {
  let at = 0;
  while (at < queued.length && isProjection(queued[at]) && queued[at].passed !== true) at += 1;
  return at < queued.length && isAppend(queued[at]) ? at : -1;
}

/** Commits the run of appends at `at` in one transaction and answers each of them. */
function appendRun(at) {
  let end = at;
  while (end < queued.length && isAppend(queued[end])) end += 1;
  const run = queued.splice(at, end - at);
  // Statements are numbered in the order they are first sent: those of the writes it passes go first.
  for (const request of queued.slice(0, at)) {
    if (request.statements) statements.add(request.statements);
    delete request.statements;
    request.passed = true;
  }
  for (const request of run) if (request.statements) statements.add(request.statements);
  // Each answer says how many appends its transaction held (sqlite-writer.test.ts reads it).
  const result = outcome(run[0], () => {
    append(run.map((request) => request.groups));
    return run.length;
  });
  for (const request of run) parentPort.postMessage({ ...result, id: request.id });
}

/**
 * `first`, then every message queued behind it and those that arrive meanwhile: a run of
 * appends commits as one, ahead of projection writes queued before it; anything else is
 * handled alone, between them. Answers go in the order the requests were handled, which the
 * main thread (sqlite-writer.ts) matches by id.
 */
function handleQueued(first) {
  take(first);
  for (;;) {
    receiveQueued();
    if (queued.length === 0) return;
    const at = appendsAt();
    if (at >= 0) {
      appendRun(at);
      continue;
    }
    const request = queued.shift();
    parentPort.postMessage(outcome(request, () => handle(request)));
    if (request.op === 'close') {
      parentPort.close();
      return;
    }
  }
}

parentPort.on('message', handleQueued);
