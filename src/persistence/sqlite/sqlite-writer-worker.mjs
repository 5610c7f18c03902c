// The SQLite writer thread: owns the store's write connection, so commits and their fsyncs
// never block the event loop that serves requests. Plain JavaScript on purpose: it runs
// without the TypeScript loader, and knows nothing of the schema — the main thread
// (sqlite-writer.ts) sends each statement once (a text, or an insert's multi-row template:
// statement-set.mjs) and then, per write, groups of rows: [statementIndex, rows], each row its
// values in the statement's column order.
// Messages are handled one at a time, in order, each answered with its outcome.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { StatementSet } from './statement-set.mjs';

const db = new Database(workerData.file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');

const statements = new StatementSet(db);
// groups: [statementIndex, values[][]][] written in one transaction (all or nothing).
const write = db.transaction((groups) => {
  for (const [index, rows] of groups) statements.run(index, rows);
});

// Appends (writes marked `chained`) may be queued several at a time: once one fails, every
// later one is refused unwritten until `resume`, so the journal never gets a gap.
let refusing = null;

function append(groups) {
  if (refusing !== null) throw new Error(`an earlier append failed (${refusing}); refused until resumed`);
  try {
    write(groups);
  } catch (error) {
    refusing = String(error?.message ?? error);
    throw error;
  }
}

function handle(request) {
  if (request.statements) statements.add(request.statements);
  switch (request.op) {
    case 'write':
      if (request.chained) append(request.groups);
      else write(request.groups);
      return undefined;
    case 'resume':
      refusing = null;
      return undefined;
    case 'pragma':
      return db.pragma(request.text);
    case 'close':
      db.close();
      return undefined;
    default:
      throw new Error(`unknown writer request ${request.op}`);
  }
}

parentPort.on('message', (request) => {
  let response;
  try {
    response = { id: request.id, ok: true, value: handle(request) };
  } catch (error) {
    response = {
      id: request.id,
      ok: false,
      message: String(error?.message ?? error),
      code: error?.code ?? '',
    };
  }
  parentPort.postMessage(response);
  if (request.op === 'close') parentPort.close();
});
