/**
 * Reads the journal for recovery in a reader thread (sqlite/sqlite-journal-reader.mjs,
 * postgres/postgres-journal-reader.mjs): the thread reads pages and checks checksums while
 * the event loop decodes and replays the page before, which on two cores takes the reading
 * off the replay's time. Both threads speak one protocol: they post pages
 * `{ seqs, bodies }` (checksums matched), then `{ bad }` (the first record that does not),
 * `{ done }` or `{ error }`, and read at most two pages ahead of the 'next' answers.
 */
import { Worker } from 'node:worker_threads';
import { verifiedCommand } from './journal-record.ts';
import { recordsOf, type JournalRecord } from './journal-pages.ts';

type ReaderMessage =
  | { seqs: number[]; bodies: string[] }
  | { bad: { seq: number; body: string | null; checksum: unknown } }
  | { done: true }
  | { error: string };

/** Records a reader thread (`script`, given `workerData`) reads, a page at a time. */
export async function* readJournalInThread(
  script: URL,
  workerData: Record<string, unknown>,
): AsyncIterable<readonly JournalRecord[]> {
  const worker = new Worker(script, { workerData });
  const queue: ReaderMessage[] = [];
  let wake: (() => void) | null = null;
  const push = (message: ReaderMessage) => {
    queue.push(message);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ error: error.message }));
  worker.on('exit', (code) => push({ error: `journal reader stopped (exit ${code})` }));
  try {
    for (;;) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const message = queue.shift() as ReaderMessage;
      if ('done' in message) return;
      if ('error' in message) throw new Error(`reading the journal failed: ${message.error}`);
      if ('bad' in message) {
        const { seq, body, checksum } = message.bad;
        verifiedCommand(seq, body, checksum); // throws CorruptJournalError
        throw new Error(`journal record ${seq} was reported bad but checks out`);
      }
      worker.postMessage('next');
      yield recordsOf(message.seqs, message.bodies);
    }
  } finally {
    worker.removeAllListeners('exit');
    worker.postMessage('stop');
    await worker.terminate();
  }
}
