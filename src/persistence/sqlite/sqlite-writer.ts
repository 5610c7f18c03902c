/**
 * The write side of the SQLite store, in a writer thread (sqlite-writer-worker.mjs) with its
 * own connection (WAL, synchronous=FULL: a commit is on disk when it returns), so commits and
 * their fsyncs never block the event loop that serves requests.
 *
 * This side turns rows into statements: one prepared statement per table and mode (a table
 * with merge rules merges an upsert into the stored row, others replace it), its text sent to
 * the thread once, then each row as [statement, values]. One `write` is one transaction. The
 * thread answers each request in order; if it dies, every pending request fails and the next
 * one starts a new thread.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Snapshot } from '../../ports/store.ts';
import type { RowWrite, Value } from '../projection.ts';
import { mergeAssignments, tableOf } from '../schema.ts';

type WriterResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; message: string; code: string };

type WriterRequest =
  { op: 'write'; rows: [number, Value[]][] } | { op: 'pragma'; text: string } | { op: 'close' };

interface Statement {
  index: number;
  columns: string[];
}

function statementText(table: string, mode: RowWrite['mode']): string {
  const spec = tableOf(table);
  const columns = spec.columns.map(([name]) => name);
  const merge = mode === 'upsert' && spec.merge !== undefined;
  const verb = mode === 'upsert' && !merge ? 'INSERT OR REPLACE' : 'INSERT';
  const conflict = merge
    ? ` ON CONFLICT(${spec.primaryKey}) DO UPDATE SET ${mergeAssignments(spec, 'sqlite').join(', ')}`
    : '';
  return `${verb} INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})${conflict}`;
}

/** Where writes run: inline on the caller's connection (default), or a writer thread. */
export type WriterMode = 'thread' | 'inline';

/** The inline writer: the thread's handler, run on the main connection. */
class InlineWriter {
  private readonly statements: Database.Statement[] = [];
  private readonly write: (rows: [number, Value[]][]) => void;

  constructor(private readonly db: Database.Database) {
    this.write = db.transaction((rows: [number, Value[]][]) => {
      for (const [index, values] of rows) this.statements[index]?.run(values);
    });
  }

  handle(request: WriterRequest & { statements?: string[] }): unknown {
    for (const text of request.statements ?? []) this.statements.push(this.db.prepare(text));
    if (request.op === 'write') return this.write(request.rows);
    if (request.op === 'pragma') return this.db.pragma(request.text);
    return undefined;
  }
}

export class SqliteWriter {
  private worker: Worker | null = null;
  private readonly inline: InlineWriter | null;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  private statements = new Map<string, Statement>();
  private unsent: string[] = [];

  constructor(
    private readonly file: string,
    mode: WriterMode = 'thread',
    db?: Database.Database,
  ) {
    this.inline = mode === 'inline' && db ? new InlineWriter(db) : null;
  }

  /** Writes rows in one transaction; resolves once committed. */
  write(rows: readonly RowWrite[]): Promise<unknown> {
    const encoded: [number, Value[]][] = new Array(rows.length);
    for (let at = 0; at < rows.length; at += 1) {
      const row = rows[at] as RowWrite;
      const statement = this.statementOf(row.table, row.mode);
      const values: Value[] = new Array<Value>(statement.columns.length);
      for (let index = 0; index < statement.columns.length; index += 1) {
        values[index] = row.row[statement.columns[index] ?? ''] as Value;
      }
      encoded[at] = [statement.index, values];
    }
    return this.request({ op: 'write', rows: encoded });
  }

  saveSnapshot(snapshot: Snapshot): Promise<unknown> {
    return this.write([
      {
        table: 'snapshots',
        mode: 'upsert',
        row: { seq: snapshot.seq, time_ms: snapshot.timeMs, body: snapshot.body },
      },
      { table: 'snapshots', mode: 'delete-older', row: { seq: snapshot.seq } } as unknown as RowWrite,
    ]);
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

  private statementOf(table: string, mode: string): Statement {
    const key = `${mode} ${table}`;
    let statement = this.statements.get(key);
    if (!statement) {
      const text =
        mode === 'delete-older'
          ? `DELETE FROM ${table} WHERE seq < ?`
          : statementText(table, mode as RowWrite['mode']);
      statement = {
        index: this.statements.size,
        columns: mode === 'delete-older' ? ['seq'] : tableOf(table).columns.map(([name]) => name),
      };
      this.statements.set(key, statement);
      this.unsent.push(text);
    }
    return statement;
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
    if (this.pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...payload, ...(statements.length > 0 ? { statements } : {}) });
    });
  }

  private start(): Worker {
    const worker = new Worker(new URL('./sqlite-writer-worker.mjs', import.meta.url), {
      workerData: { file: this.file },
    });
    // A new thread has no statements prepared: send every text again with the first request.
    this.unsent = [...this.statements.keys()].map((key) => {
      const [mode = '', table = ''] = key.split(' ');
      return mode === 'delete-older'
        ? `DELETE FROM ${table} WHERE seq < ?`
        : statementText(table, mode as RowWrite['mode']);
    });
    worker.on('message', (response: WriterResponse) => {
      const waiting = this.pending.get(response.id);
      if (!waiting) return;
      this.pending.delete(response.id);
      if (this.pending.size === 0) worker.unref();
      if (response.ok) waiting.resolve(response.value);
      else waiting.reject(Object.assign(new Error(response.message), { code: response.code }));
    });
    const stopped = (reason: string) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values())
        waiting.reject(new Error(`SQLite writer stopped: ${reason}`));
      this.pending.clear();
    };
    worker.on('error', (error) => stopped(error.message));
    worker.on('exit', (code) => stopped(`exit ${code}`));
    worker.unref();
    this.worker = worker;
    return worker;
  }
}
