/**
 * Journal records, as every store writes and reads them: one row per command, its body the
 * codec's JSON and a CRC-32 of that body. On read, a record whose checksum does not match, or
 * whose body does not decode, stops recovery with CorruptJournalError: a torn or corrupted
 * tail is refused, never replayed. The message names the record and what to do.
 */
import { crc32 } from 'node:zlib';
import type { Command } from '../domain/commands.ts';
import type { JournalEntry } from '../ports/store.ts';
import { decode, encode } from './codec.ts';
import { projectEvents, RowBatch, targetOf } from './projection.ts';

export class CorruptJournalError extends Error {
  constructor(
    readonly seq: number,
    reason: string,
  ) {
    super(
      `journal record ${seq} ${reason}; refusing to replay it or anything after it. ` +
        `The store is left as it is: restore it from a backup, or, to give up record ${seq} and ` +
        `everything after it, delete them from the journal table (docs/persistence.md).`,
    );
    this.name = 'CorruptJournalError';
  }
}

export function checksumOf(body: string): number {
  return crc32(body);
}

const JOURNAL = targetOf('journal', 'insert');

/**
 * A command's journal body: the codec's text. Commands hold no Map (domain/commands.ts), so
 * plain JSON.stringify gives that text unless a bigint is present, which makes it throw: then
 * the tagging encoder. Saves walking every command for tags first (most hold none).
 */
function encodeCommand(command: Command): string {
  try {
    return JSON.stringify(command);
  } catch {
    return encode(command);
  }
}

/** The journal row of one entry, in column order (table `journal` in schema.ts): seq, time_ms, type, body, checksum. */
export function journalValues(entry: JournalEntry): [number, number, string, string, number] {
  const body = encodeCommand(entry.command);
  return [entry.seq, entry.command.timeMs, entry.command.type, body, checksumOf(body)];
}

const PROJECTOR_POSITION = targetOf('projector_position', 'upsert');

/** The projector's position row (table `projector_position`): every entry up to `seq` is projected. */
export function projectorPositionValues(seq: number): [string, number] {
  return ['main', seq];
}

/**
 * The statement that gives a store its projector position when it has none: a store written
 * before write-behind projection (every entry's rows were written with it, so the position is
 * the journal's end) or an empty one (0). Run on open, before any append.
 */
export const INITIAL_PROJECTOR_POSITION_SQL =
  "INSERT INTO projector_position (name, seq) SELECT 'main', (SELECT COALESCE(MAX(seq), 0) FROM journal) " +
  'WHERE NOT EXISTS (SELECT 1 FROM projector_position)';

/** The projector position stored, as a query (`seq`, one row). */
export const PROJECTOR_POSITION_SQL = "SELECT seq FROM projector_position WHERE name = 'main'";

/**
 * Every row one append writes: each entry's journal row and its events' projection rows, and
 * the projector's position at the last entry (the rows are written with the journal).
 */
export function rowsOfEntries(entries: readonly JournalEntry[]): RowBatch {
  const batch = new RowBatch();
  for (const entry of entries) {
    batch.add(JOURNAL, journalValues(entry));
    projectEvents(batch, entry.events);
  }
  const last = entries.at(-1);
  if (last) batch.add(PROJECTOR_POSITION, projectorPositionValues(last.seq));
  return batch;
}

/** What the operator's reset writes after emptying every table: the entries, and the projector's position even when there are none. */
export function replacementRowsOf(entries: readonly JournalEntry[]): RowBatch {
  const batch = rowsOfEntries(entries);
  if (entries.length === 0) batch.add(PROJECTOR_POSITION, projectorPositionValues(0));
  return batch;
}

/** The journal rows of entries alone (the write before the answer when projections are written behind). */
export function journalRowsOf(entries: readonly JournalEntry[]): RowBatch {
  const batch = new RowBatch();
  for (const entry of entries) batch.add(JOURNAL, journalValues(entry));
  return batch;
}

/**
 * The projection rows of entries already journaled, and the projector's position at the last
 * of them, for one transaction: the position moves exactly with the rows it covers.
 */
export function projectionRowsOf(entries: readonly JournalEntry[]): RowBatch {
  const batch = eventRowsOf(entries);
  const last = entries.at(-1);
  if (last) batch.add(PROJECTOR_POSITION, projectorPositionValues(last.seq));
  return batch;
}

/** The projection rows of entries, without the position (staged ahead of their write: sqlite-writer.ts). */
export function eventRowsOf(entries: readonly JournalEntry[]): RowBatch {
  const batch = new RowBatch();
  for (const entry of entries) projectEvents(batch, entry.events);
  return batch;
}

/** The projector's position alone (the write of rows staged before). */
export function positionRowsOf(seq: number): RowBatch {
  const batch = new RowBatch();
  batch.add(PROJECTOR_POSITION, projectorPositionValues(seq));
  return batch;
}

/** A journal record by its sequence number and body (what a pipelined append checks is stored). */
export interface JournalMark {
  seq: number;
  body: string;
}

/** The last journal record of an append's rows (the guard of the next pipelined append, postgres/batch-write.ts). */
export function lastJournalRecord(batch: RowBatch): JournalMark | undefined {
  const last = batch.rowsOf(JOURNAL).at(-1);
  return last ? { seq: Number(last[0]), body: String(last[3]) } : undefined;
}

/** A stored record, checked: its command, or CorruptJournalError. */
export function verifiedCommand(seq: number, body: unknown, checksum: unknown): Command {
  if (typeof body !== 'string') throw new CorruptJournalError(seq, 'has no body');
  const stored = Number(checksum);
  const computed = checksumOf(body);
  if (stored !== computed) {
    throw new CorruptJournalError(
      seq,
      `fails its checksum (stored ${String(checksum)}, computed ${computed}): it is torn or corrupted`,
    );
  }
  return decodedCommand(seq, body);
}

/**
 * The command of a body whose checksum matched (here, or in the reader thread that read it),
 * or CorruptJournalError.
 */
export function decodedCommand(seq: number, body: string): Command {
  try {
    const command = decode<Command>(body);
    if (command !== null && typeof command === 'object' && typeof command.type === 'string') return command;
  } catch {
    // reported below
  }
  throw new CorruptJournalError(seq, 'does not decode to a command');
}
