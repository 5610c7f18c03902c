// The SQLite journal reader thread (recovery): reads journal records after a sequence number
// in pages, checks each body's CRC-32 here, and posts each page as soon as it is read, so the
// event loop only decodes and replays while this thread reads ahead. Plain JavaScript on
// purpose, like the writer thread: it runs without the TypeScript loader.
//
// workerData: { file, after, pageRows }. Messages posted, in order:
//   { seqs: number[], bodies: string[] }             a page of records whose checksums match
//   { bad: { seq, body, checksum } }                 the first record that does not (last message)
//   { done: true }                                   no more records
//   { error: message }                               the read failed
// The main thread answers each page with 'next' (flow control: at most two pages ahead).
import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import Database from 'better-sqlite3';

const { file, after, pageRows } = workerData;
const AHEAD = 2;

function* pages() {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const select = db
      .prepare('SELECT seq, body, checksum FROM journal WHERE seq > ? ORDER BY seq LIMIT ?')
      .raw();
    let last = after;
    for (;;) {
      const rows = select.all(last, pageRows);
      const seqs = [];
      const bodies = [];
      for (const [seq, body, checksum] of rows) {
        if (typeof body !== 'string' || crc32(body) !== Number(checksum)) {
          if (seqs.length > 0) yield { seqs, bodies };
          yield { bad: { seq, body: typeof body === 'string' ? body : null, checksum } };
          return;
        }
        seqs.push(seq);
        bodies.push(body);
        last = seq;
      }
      if (seqs.length > 0) yield { seqs, bodies };
      if (rows.length < pageRows) return;
    }
  } finally {
    db.close();
  }
}

const source = pages();
let credit = AHEAD;
let finished = false;

function pump() {
  while (credit > 0 && !finished) {
    let next;
    try {
      next = source.next();
    } catch (error) {
      finished = true;
      parentPort.postMessage({ error: String(error?.message ?? error) });
      return;
    }
    if (next.done) {
      finished = true;
      parentPort.postMessage({ done: true });
      return;
    }
    credit -= 1;
    parentPort.postMessage(next.value);
  }
}

parentPort.on('message', (message) => {
  if (message === 'next') {
    credit += 1;
    pump();
  } else if (message === 'stop') {
    finished = true;
    source.return?.();
    parentPort.close();
  }
});
pump();
