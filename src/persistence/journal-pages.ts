/**
 * Journal pages as recovery reads them (Store.journalAfter): records in sequence order, a
 * page at a time, so a store can read ahead (a thread, a query in flight) while the engine
 * replays the page before. Each record is checked as it is decoded; the first bad one ends
 * the reading with CorruptJournalError after the intact records before it were yielded.
 */
import type { Command } from '../domain/commands.ts';
import { CorruptJournalError, decodedCommand, verifiedCommand } from './journal-record.ts';

export interface JournalRecord {
  seq: number;
  command: Command;
}

/** Records of `seqs`/`bodies` (checksums already checked). */
export function recordsOf(seqs: readonly number[], bodies: readonly string[]): JournalRecord[] {
  const records: JournalRecord[] = new Array<JournalRecord>(seqs.length);
  for (let index = 0; index < seqs.length; index += 1) {
    const seq = seqs[index] as number;
    records[index] = { seq, command: decodedCommand(seq, bodies[index] as string) };
  }
  return records;
}

/**
 * Records of raw rows, each checked (checksum and decoding), up to the first bad one: the
 * intact records before it, and its CorruptJournalError to throw once they are yielded.
 */
export function verifiedPrefix(rows: readonly Record<string, unknown>[]): {
  records: JournalRecord[];
  failure: CorruptJournalError | null;
} {
  const records: JournalRecord[] = [];
  for (const row of rows) {
    const seq = Number(row['seq']);
    try {
      records.push({ seq, command: verifiedCommand(seq, row['body'], row['checksum']) });
    } catch (error) {
      if (!(error instanceof CorruptJournalError)) throw error;
      return { records, failure: error };
    }
  }
  return { records, failure: null };
}

/** Every record of paged reading, one by one (tests, tools). */
export async function* eachRecord(
  pages: AsyncIterable<readonly JournalRecord[]>,
): AsyncIterable<JournalRecord> {
  for await (const page of pages) yield* page;
}
