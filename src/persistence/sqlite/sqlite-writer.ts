/**
 * The write side of the SQLite store: one `write` is one transaction (all or nothing) of a
 * RowBatch, run in a writer thread (sqlite-writer-worker.mjs; the server's default) with its
 * own connection (WAL, synchronous=FULL: a commit is on disk when it returns), so that commits
 * and their fsyncs leave the event loop, or inline on the store's connection.
 *
 * This side turns targets into statements: one prepared statement per table and mode (a table
 * with merge rules merges an upsert into the stored row, others replace it), sent to the
 * thread once as a template the thread can repeat for several rows per call
 * (statement-set.mjs). A write is then its groups, `[statement, rows]`, each row the values in the
 * statement's column order, exactly as the batch holds them: nothing is copied or renamed on
 * the event loop (the thread receives them by structured clone). The thread answers each
 * request in order (appends may pass projection writes queued before them); if it dies, every
 * pending request fails and the next one starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Snapshot } from '../../ports/store.ts';
import { RingQueue } from '../../runtime/ring-queue.ts';
import { folded } from '../fold-rows.ts';
import type { RowBatch, RowWrite, Target, Value } from '../projection.ts';
import { RETENTION_SQL } from '../retention.ts';
import { keyColumns, mergeAssignments, storedTableNames, tableOf } from '../schema.ts';
import { oneRowText, StatementSet, type InsertTemplate, type StatementSpec } from './statement-set.mjs';

type WriterResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code: string };

/** Rows of one statement, each its values in the statement's column order. */
type Group = [statement: number, rows: Value[][]];

/** A request sent to the writer thread, waiting for its answer. */
interface Waiting {
  id: number;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/** A staged group: its statement, its rows, and 1 when the statement upserts. */
type StagedGroup = [number, Value[][], 0 | 1];

type WriterRequest =
  | {
      op: 'write';
      groups: Group[];
      chained?: boolean;
      projection?: boolean;
      /** A projection write of the rows staged for entries `from` to `through`. */
      from?: number;
      through?: number;
    }
  | { op: 'resume' }
  | { op: 'pragma'; text: string }
  | { op: 'close' };

/** The insert writing `table`'s rows in `mode`, as a template several rows can share. */
function insertTemplate(table: string, mode: RowWrite['mode']): InsertTemplate {
  const spec = tableOf(table);
  const columns = spec.columns.map(([name]) => name);
  const merge = mode === 'upsert' && spec.merge !== undefined;
  // OR FAIL: a statement that fails keeps no partial undo of its own (SQLite then needs no
  // statement journal, which spilled to temporary files for multi-row inserts: about 2 µs
  // per crossing order of the writer thread, 2026-11-26); the transaction around every write
  // rolls back whole on any error, so nothing half-written is ever committed. Tables made
  // since 2026-11-26 declare FAIL themselves (schema.ts); the verb gives older stores the same.
  // A table that names the columns its rows' later versions change updates those in place
  // (schema.ts, Table.updatedColumns); any other upsert replaces the row.
  const updated = mode === 'upsert' && !merge ? spec.updatedColumns : undefined;
  const verb = mode === 'upsert' && !merge && !updated ? 'INSERT OR REPLACE' : 'INSERT OR FAIL';
  const assignments = merge
    ? mergeAssignments(spec, 'sqlite')
    : updated?.map((column) => `${column} = excluded.${column}`);
  const conflict = assignments
    ? ` ON CONFLICT(${keyColumns(spec).join(', ')}) DO UPDATE SET ${assignments.join(', ')}`
    : '';
  return {
    head: `${verb} INTO ${table} (${columns.join(', ')}) VALUES `,
    row: `(${columns.map(() => '?').join(', ')})`,
    tail: conflict,
  };
}

/** Where writes run: a writer thread (the server's default), or inline on the caller's connection. */
export type WriterMode = 'thread' | 'inline';

/** The inline writer: the thread's handler, run on the main connection. */
class InlineWriter {
  private readonly statements: StatementSet;
  private readonly write: (groups: Group[]) => void;

  constructor(private readonly db: Database.Database) {
    this.statements = new StatementSet(db);
    this.write = db.transaction((groups: Group[]) => {
      for (const [index, rows] of groups) this.statements.run(index, rows);
    });
  }

  handle(request: WriterRequest & { statements?: StatementSpec[] }): unknown {
    this.statements.add(request.statements ?? []);
    if (request.op === 'write') return this.write(request.groups);
    if (request.op === 'pragma') return this.db.pragma(request.text);
    return undefined;
  }
}

export class SqliteWriter {
  private worker: Worker | null = null;
  private readonly inline: InlineWriter | null;
  private nextId = 1;
  /**
   * Requests sent to the thread and not yet answered, oldest first, in two queues: it answers
   * projection writes in order, and everything else in order, but an append may pass the
   * projection writes queued before it (sqlite-writer-worker.mjs). Rings, not a Map by id:
   * a long-lived Map's old tables keep answered requests alive (docs/architecture.md).
   */
  private readonly pending = new RingQueue<Waiting>();
  private readonly pendingProjections = new RingQueue<Waiting>();
  /** Statements in the order the writer prepares them (its index is the statement's). */
  private readonly specs: StatementSpec[] = [];
  /** Statement index by target slot. */
  private readonly bySlot: number[] = [];
  private readonly byText = new Map<string, number>();
  private unsent: StatementSpec[] = [];

  constructor(
    private readonly file: string,
    mode: WriterMode = 'thread',
    db?: Database.Database,
  ) {
    this.inline = mode === 'inline' && db ? new InlineWriter(db) : null;
  }

  /**
   * Writes a batch in one transaction; resolves once committed. `chained` (appends): in the
   * writer thread, once a chained write fails every later one is refused unwritten until
   * `resume`, so several may be queued without risking a gap in the journal; and appends that
   * queued while the thread was committing commit together, in one transaction (all or none),
   * the promise then resolving to how many appends that transaction held.
   */
  write(batch: RowBatch, chained = false): Promise<unknown> {
    const groups = this.groupsOf(batch);
    return this.request(chained ? { op: 'write', groups, chained } : { op: 'write', groups });
  }

  /**
   * Writes a projection batch (the read models behind the journal) in one transaction. In the
   * writer thread, appends queued behind it go first, and its commit skips the fsync: the
   * journal holds everything it writes, and the next append's fsync covers it.
   */
  project(batch: RowBatch): Promise<unknown> {
    return this.request({ op: 'write', groups: this.groupsOf(batch), projection: true });
  }

  /**
   * Hands the writer thread the projection rows of entries `from` to `seq`, to be written by a
   * later `projectStaged` (thread only). No answer: a thread that stops loses them, and the
   * write that needs them is then refused (STAGED_ROWS_MISSING) rather than passing them.
   */
  stage(from: number, seq: number, batch: RowBatch): void {
    // Each group marked 1 when it upserts: the thread merges the staged groups per statement,
    // and writes every insert before any upsert, so an order inserted by one entry and
    // updated by a later one is inserted first whatever order the statements first came in.
    const groups = this.groupsOf(batch).map(([index, rows], at): StagedGroup => [
      index,
      rows,
      batch.targets[at]?.mode === 'upsert' ? 1 : 0,
    ]);
    const worker = this.worker ?? this.start();
    const statements = this.unsent;
    this.unsent = [];
    worker.postMessage({ op: 'stage', from, seq, groups, ...(statements.length > 0 ? { statements } : {}) });
  }

  /**
   * Writes the rows staged for entries `from` to `through`, and `batch` (the projector's
   * position), in one projection transaction.
   */
  projectStaged(from: number, through: number, batch: RowBatch): Promise<unknown> {
    return this.request({ op: 'write', groups: this.groupsOf(batch), projection: true, from, through });
  }

  /**
   * Empties every table and writes `batch`, in one transaction (the operator's reset): the
   * store then holds the batch alone, or, if anything fails, what it held before.
   */
  replaceAll(batch: RowBatch): Promise<unknown> {
    const wipe = storedTableNames().map((name): Group => [this.statementFor(`DELETE FROM ${name}`), [[]]]);
    return this.request({ op: 'write', groups: [...wipe, ...this.groupsOf(batch)] });
  }

  private groupsOf(batch: RowBatch): Group[] {
    const groups: Group[] = new Array<Group>(batch.targets.length);
    for (let at = 0; at < groups.length; at += 1) {
      const target = batch.targets[at] as Target;
      // Upserts folded per key first: the same end state with fewer rows to write.
      groups[at] = [this.statementOf(target), folded(target, batch.rowsOf(target))];
    }
    return groups;
  }

  /** True when writes run in the writer thread (several may then be queued at once). */
  get threaded(): boolean {
    return this.inline === null;
  }

  /** Requests sent to the writer thread and not yet answered (0 inline: each completes at once). */
  get pendingRequests(): number {
    return this.pending.size + this.pendingProjections.size;
  }

  /** Lets chained writes through again after a failed one. */
  async resume(): Promise<void> {
    if (this.inline) return;
    await this.request({ op: 'resume' });
  }

  /** Saves a snapshot and deletes those older than the newest `keep`, in one transaction. */
  saveSnapshot(snapshot: Snapshot, keep: number): Promise<unknown> {
    const save = this.statementFor(insertTemplate('snapshots', 'upsert'));
    const trim = this.statementFor(RETENTION_SQL.trimSnapshots);
    return this.request({
      op: 'write',
      groups: [
        [save, [[snapshot.seq, snapshot.timeMs, snapshot.body]]],
        [trim, [[Math.max(1, keep) - 1]]],
      ],
    });
  }

  /** Runs one statement (text with `?` placeholders) in a transaction of its own. */
  run(text: string, values: Value[]): Promise<unknown> {
    return this.request({ op: 'write', groups: [[this.statementFor(text), [values]]] });
  }

  pragma(text: string): Promise<unknown> {
    return this.request({ op: 'pragma', text });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    await this.request({ op: 'close' }).catch(() => undefined);
    await worker.terminate();
    await exited;
  }

  private statementOf(target: Target): number {
    const index = this.bySlot[target.slot];
    if (index !== undefined) return index;
    const statement = this.statementFor(insertTemplate(target.table.name, target.mode));
    this.bySlot[target.slot] = statement;
    return statement;
  }

  private statementFor(spec: StatementSpec): number {
    const key = oneRowText(spec);
    let index = this.byText.get(key);
    if (index === undefined) {
      index = this.specs.length;
      this.specs.push(spec);
      this.byText.set(key, index);
      this.unsent.push(spec);
    }
    return index;
  }

  private request(payload: WriterRequest): Promise<unknown> {
    // Start the thread first: a new thread is owed every statement text (start() queues them).
    const worker = this.inline ? null : (this.worker ?? this.start());
    const statements = this.unsent;
    this.unsent = [];
    if (!worker) {
      try {
        return Promise.resolve(this.inline?.handle({ ...payload, statements }));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    const id = this.nextId;
    this.nextId += 1;
    // Referenced only while a request waits, so an idle store never keeps the process alive
    // and a waiting one always gets its answer.
    if (this.pendingRequests === 0) worker.ref();
    const queue =
      payload.op === 'write' && payload.projection === true ? this.pendingProjections : this.pending;
    return new Promise((resolve, reject) => {
      queue.push({ id, resolve, reject });
      worker.postMessage({ id, ...payload, ...(statements.length > 0 ? { statements } : {}) });
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-writer-worker.mjs', import.meta.url), {
      workerData: { file: this.file },
    });
    // A new thread has no statements prepared: send every one again with the first request.
    this.unsent = [...this.specs];
    worker.on('message', (response: WriterResponse) => {
      const queue =
        this.pending.peek()?.id === response.id
          ? this.pending
          : this.pendingProjections.peek()?.id === response.id
            ? this.pendingProjections
            : null;
      if (queue === null) return;
      const waiting = queue.shift() as Waiting;
      if (this.pendingRequests === 0) worker.unref();
      if (response.ok) waiting.resolve(response.value);
      else waiting.reject(Object.assign(new Error(response.message), { code: response.code }));
    });
    const stopped = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      const stranded = [...this.pending.drain(), ...this.pendingProjections.drain()];
      for (const waiting of stranded) waiting.reject(new Error(`SQLite writer stopped: ${reason}`));
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
