/**
 * The journal record read from an entry stream message (src/cluster/entry-feed.ts `recordOf`)
 * is the one the leader wrote (entry-stream.ts `streamedText`): the body as the journal table
 * holds it (quotes, backslashes, non-ASCII and tagged bigints included), its checksum and the
 * predecessor's, whether the record is read from the head of the text or the whole is parsed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordOf } from '../../src/cluster/entry-feed.ts';
import { streamedText } from '../../src/cluster/entry-stream.ts';
import { journalValues } from '../../src/persistence/journal-record.ts';
import type { JournalEntry } from '../../src/ports/store.ts';

/** An entry whose command holds every character a JSON string escapes, and a bigint. */
function awkwardEntry(seq: number): JournalEntry {
  const command = {
    type: 'createAccount',
    timeMs: 1_764_000_000_000,
    label: 'a "quoted" \\ back\\slash, tab\t, newline\n, é, 日本, emoji 🙂 and "prev":1,',
    amount: 12_345_678_901_234_567_890n,
  };
  const events = [{ type: 'accountCreated', uid: '1001', balance: 5n, note: '"body":"x"' }];
  return { seq, command, events } as unknown as JournalEntry;
}

const bytes = (text: string) => new TextEncoder().encode(text);

test('the record comes back as the journal table holds it, with its checksum and prev', () => {
  const entry = awkwardEntry(7);
  const [, , , body, checksum] = journalValues(entry);
  for (const prev of [123_456, null]) {
    const { text } = streamedText(entry, prev);
    assert.deepEqual(recordOf(bytes(text)), { seq: 7, body, checksum, prev });
  }
  assert.deepEqual(recordOf(bytes(streamedText(awkwardEntry(1), 0).text))?.prev, 0);
});

test('a message laid out otherwise is parsed whole; one without a record gives null', () => {
  const entry = awkwardEntry(3);
  const [, , , body, checksum] = journalValues(entry);
  const reordered = JSON.stringify({ checksum, prev: 9, body, seq: 3, events: [] });
  assert.deepEqual(recordOf(bytes(reordered)), { seq: 3, body, checksum, prev: 9 });
  const older = JSON.stringify({ seq: 3, timeMs: 1, type: 'createAccount', events: [] });
  assert.equal(recordOf(bytes(older)), null);
});
