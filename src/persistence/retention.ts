/**
 * Journal retention: what a store may delete once a snapshot is saved, the same on every store.
 *
 * Recovery loads the newest snapshot and replays the journal from that snapshot's own record
 * on (runtime/recovery.ts), so the journal is kept from the oldest kept snapshot's record on,
 * never less: the newest snapshot is always kept, and so is every record at or after it.
 * Beyond that a store keeps `snapshots` snapshots (a spare one to fall back on, by deleting
 * the newest, if it were ever damaged) and the records of the last `journalAgeMs` before the
 * newest snapshot (by the commands' own times: the server clock's, simulated or real). Older
 * snapshots and records are deleted, a prefix of the journal at a time, so the journal stays
 * gapless from its first record to its last.
 *
 * Retention applies to the journal and the snapshots only: projections (orders, fills, bills,
 * …) are the history the API serves and are never deleted here.
 *
 * Settings: BOURSE_JOURNAL_RETAIN_SNAPSHOTS (2) and BOURSE_JOURNAL_RETAIN_HOURS (0; `all`
 * keeps the whole journal), docs/configuration.md.
 */

export interface RetentionPolicy {
  /** Snapshots kept, newest first (at least 1). */
  snapshots: number;
  /** Records this much older than the newest snapshot are kept too; Infinity keeps every record. */
  journalAgeMs: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { snapshots: 2, journalAgeMs: 0 };

/** Records deleted per statement: the writer commits appends between two such deletes. */
export const PRUNE_CHUNK_RECORDS = 10_000;

const HOUR_MS = 3_600_000;

export function parseRetention(env: NodeJS.ProcessEnv): RetentionPolicy {
  const snapshotsText = env.BOURSE_JOURNAL_RETAIN_SNAPSHOTS;
  const hoursText = env.BOURSE_JOURNAL_RETAIN_HOURS;
  let snapshots = DEFAULT_RETENTION.snapshots;
  if (snapshotsText !== undefined && snapshotsText !== '') {
    if (!/^\d+$/.test(snapshotsText) || Number(snapshotsText) < 1 || Number(snapshotsText) > 1000) {
      throw new Error('BOURSE_JOURNAL_RETAIN_SNAPSHOTS must be a whole number from 1 to 1000');
    }
    snapshots = Number(snapshotsText);
  }
  let journalAgeMs = DEFAULT_RETENTION.journalAgeMs;
  if (hoursText !== undefined && hoursText !== '') {
    if (hoursText.toLowerCase() === 'all') journalAgeMs = Number.POSITIVE_INFINITY;
    else if (/^\d{1,7}$/.test(hoursText)) journalAgeMs = Number(hoursText) * HOUR_MS;
    else throw new Error('BOURSE_JOURNAL_RETAIN_HOURS must be a whole number of hours or all');
  }
  return { snapshots, journalAgeMs };
}

/** A kept snapshot's position and time. */
export interface SnapshotMark {
  seq: number;
  timeMs: number;
}

/** What pruning needs of a store (its read and write connections). */
export interface JournalPruning {
  /** The snapshots still stored, newest first (after the store dropped those beyond the policy). */
  snapshotMarks(): Promise<SnapshotMark[]>;
  /** The journal's first record, or null when it is empty. */
  firstSeq(): Promise<number | null>;
  /** The time of record `seq` (it exists: the journal is gapless from firstSeq on). */
  timeOf(seq: number): Promise<number>;
  /** Deletes the records `fromSeq` ≤ seq < `toSeq`, in one transaction. */
  deleteJournal(fromSeq: number, toSeq: number): Promise<void>;
}

/**
 * The first record to keep, by the policy: the oldest kept snapshot's record, or an earlier
 * one when the age asks for more. The journal's times are searched by halving (they rise with
 * the sequence but for a wall clock set back, which at worst keeps a few records more or less
 * of the age window: never one the snapshots need).
 */
export async function firstKeptSeq(
  pruning: JournalPruning,
  policy: RetentionPolicy,
  marks: readonly SnapshotMark[],
  firstSeq: number,
): Promise<number> {
  const newest = marks[0];
  const oldest = marks[marks.length - 1];
  if (!newest || !oldest || policy.journalAgeMs === Number.POSITIVE_INFINITY) return firstSeq;
  let keepFrom = Math.max(firstSeq, oldest.seq);
  if (policy.journalAgeMs <= 0 || keepFrom <= firstSeq) return keepFrom;
  const cutoffMs = newest.timeMs - policy.journalAgeMs;
  // Invariant: every record at or after keepFrom is kept; records before `low` are older.
  let low = firstSeq;
  while (low < keepFrom) {
    const middle = low + Math.floor((keepFrom - low) / 2);
    if ((await pruning.timeOf(middle)) >= cutoffMs) keepFrom = middle;
    else low = middle + 1;
  }
  return keepFrom;
}

/**
 * Deletes the journal records before the first one the policy keeps, oldest first, a chunk of
 * PRUNE_CHUNK_RECORDS per transaction; returns how many it deleted.
 */
export async function pruneJournal(pruning: JournalPruning, policy: RetentionPolicy): Promise<number> {
  const marks = await pruning.snapshotMarks();
  const firstSeq = await pruning.firstSeq();
  if (firstSeq === null || marks.length === 0) return 0;
  const keepFrom = await firstKeptSeq(pruning, policy, marks, firstSeq);
  for (let from = firstSeq; from < keepFrom; from += PRUNE_CHUNK_RECORDS) {
    await pruning.deleteJournal(from, Math.min(keepFrom, from + PRUNE_CHUNK_RECORDS));
  }
  return Math.max(0, keepFrom - firstSeq);
}

/** The statements of retention, with `?` placeholders (PostgreSQL numbers them). */
export const RETENTION_SQL = {
  /** Keeps the newest snapshots: the parameter is how many, less one. */
  trimSnapshots:
    'DELETE FROM snapshots WHERE seq < (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT 1 OFFSET ?)',
  snapshotMarks: 'SELECT seq, time_ms FROM snapshots ORDER BY seq DESC',
  firstSeq: 'SELECT MIN(seq) AS seq FROM journal',
  timeOf: 'SELECT time_ms FROM journal WHERE seq = ?',
  deleteJournal: 'DELETE FROM journal WHERE seq >= ? AND seq < ?',
} as const;

type Rows = Record<string, unknown>[];

/** JournalPruning over SQL: `read` on a connection that sees every commit, `write` on the writer's. */
export function sqlPruning(
  read: (text: string, params: unknown[]) => Promise<Rows>,
  write: (text: string, params: unknown[]) => Promise<void>,
): JournalPruning {
  return {
    async snapshotMarks() {
      const rows = await read(RETENTION_SQL.snapshotMarks, []);
      return rows.map((row) => ({ seq: Number(row.seq), timeMs: Number(row.time_ms) }));
    },
    async firstSeq() {
      const [row] = await read(RETENTION_SQL.firstSeq, []);
      return row?.seq === null || row?.seq === undefined ? null : Number(row.seq);
    },
    async timeOf(seq) {
      const [row] = await read(RETENTION_SQL.timeOf, [seq]);
      if (!row) throw new Error(`journal record ${seq} is missing: the journal has a gap`);
      return Number(row.time_ms);
    },
    deleteJournal: (fromSeq, toSeq) => write(RETENTION_SQL.deleteJournal, [fromSeq, toSeq]),
  };
}
