// The PostgreSQL journal reader thread (recovery): reads journal records after a sequence
// number in pages on its own connection, with the next page's query in flight while a page is
// checked, checks each body's CRC-32 here, and posts the pages to the event loop, which only
// decodes and replays. Same protocol as the SQLite reader (persistence/journal-reader-thread.ts).
// Plain JavaScript on purpose: it runs without the TypeScript loader.
//
// workerData: { url, after, pageRows, connectTimeoutMs }.
import { parentPort, workerData } from 'node:worker_threads';
import { crc32 } from 'node:zlib';
import pg from 'pg';

const { url, after, pageRows, connectTimeoutMs } = workerData;
const AHEAD = 2;

let credit = AHEAD;
let stopped = false;
let wake = null;

parentPort.on('message', (message) => {
  if (message === 'next') credit += 1;
  else if (message === 'stop') stopped = true;
  wake?.();
  wake = null;
});

async function waitForCredit() {
  while (credit <= 0 && !stopped) await new Promise((resolve) => (wake = resolve));
}

async function read(client) {
  const page = (last) =>
    client.query({
      text: 'SELECT seq, body, checksum FROM journal WHERE seq > $1 ORDER BY seq LIMIT $2',
      values: [last, pageRows],
      rowMode: 'array',
    });
  let pending = page(after);
  for (;;) {
    const { rows } = await pending;
    const lastRow = rows[rows.length - 1];
    const more = rows.length === pageRows && lastRow !== undefined;
    if (more) pending = page(lastRow[0]);
    const seqs = [];
    const bodies = [];
    let bad = null;
    for (const [seqText, body, checksum] of rows) {
      const seq = Number(seqText);
      if (typeof body !== 'string' || crc32(body) !== Number(checksum)) {
        bad = { seq, body: typeof body === 'string' ? body : null, checksum };
        break;
      }
      seqs.push(seq);
      bodies.push(body);
    }
    if (seqs.length > 0) {
      await waitForCredit();
      if (stopped) return;
      credit -= 1;
      parentPort.postMessage({ seqs, bodies });
    }
    if (bad) {
      if (more) await pending.catch(() => undefined);
      parentPort.postMessage({ bad });
      return;
    }
    if (!more) {
      parentPort.postMessage({ done: true });
      return;
    }
    if (stopped) {
      await pending.catch(() => undefined);
      return;
    }
  }
}

const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
try {
  await client.connect();
  await read(client);
} catch (error) {
  parentPort.postMessage({ error: String(error?.message ?? error) });
} finally {
  await client.end().catch(() => undefined);
  parentPort.close();
}
