/**
 * Tables as files, the store-neutral form of a backup: one gzip-compressed JSON-lines file per
 * table, `tables/<name>.jsonl.gz`. The first line names the table and its columns
 * (`{"table":"orders","columns":["order_id",…]}`), every other line is one row, its values in
 * that column order (`["123","1000000001",…]`): text as JSON strings, integers as numbers
 * (every stored integer is below 2^53). The same rows come back from either store, so a
 * backup of one restores into the other.
 *
 * Also here: the rows of a SQLite file's tables, read the same way, for a SQLite backup
 * restored into PostgreSQL. Rows go in chunks, so no table is ever held in memory whole.
 */
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import type Database from 'better-sqlite3';
import { keyColumns, type Table } from '../schema.ts';

export type RowValues = (string | number | null)[];

/** A table's rows, a chunk at a time, in primary-key order. */
export interface TableRows {
  table: string;
  columns: string[];
  chunks: AsyncIterable<RowValues[]>;
}

/** Rows read or written per chunk. */
export const CHUNK_ROWS = 5_000;

export function tableFile(dir: string, table: string): string {
  return join(dir, 'tables', `${table}.jsonl.gz`);
}

/** Writes `rows` to `file`; resolves to how many rows it wrote, once the file is closed. */
export async function writeTableFile(file: string, rows: TableRows): Promise<number> {
  const gzip = createGzip();
  const out = createWriteStream(file, { mode: 0o600 });
  const finished = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    gzip.once('error', reject);
  });
  gzip.pipe(out);
  const write = async (text: string) => {
    if (!gzip.write(text)) await once(gzip, 'drain');
  };
  await write(`${JSON.stringify({ table: rows.table, columns: rows.columns })}\n`);
  let count = 0;
  for await (const chunk of rows.chunks) {
    let text = '';
    for (const row of chunk) text += `${JSON.stringify(row)}\n`;
    await write(text);
    count += chunk.length;
  }
  gzip.end();
  await finished;
  return count;
}

/** The rows of a file written by writeTableFile. */
export async function readTableFile(file: string): Promise<TableRows> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? null : (JSON.parse(first.value) as { table?: unknown; columns?: unknown });
  if (!header || typeof header.table !== 'string' || !Array.isArray(header.columns)) {
    lines.close();
    throw new Error(`${file} is not a bourse table file`);
  }
  async function* chunks(): AsyncIterable<RowValues[]> {
    let chunk: RowValues[] = [];
    try {
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (next.value === '') continue;
        chunk.push(JSON.parse(next.value) as RowValues);
        if (chunk.length >= CHUNK_ROWS) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    } finally {
      lines.close();
    }
  }
  return { table: header.table, columns: header.columns.map(String), chunks: chunks() };
}

/** The rows of `table` in a SQLite file opened read-only (`db`), in primary-key order. */
export function sqliteTableRows(db: Database.Database, table: Table): TableRows {
  const columns = table.columns.map(([name]) => name);
  const select = db.prepare(
    `SELECT ${columns.join(', ')} FROM ${table.name} ORDER BY ${keyColumns(table).join(', ')}`,
  );
  async function* chunks(): AsyncIterable<RowValues[]> {
    let chunk: RowValues[] = [];
    for (const row of select.raw().iterate() as Iterable<RowValues>) {
      chunk.push(row);
      if (chunk.length >= CHUNK_ROWS) {
        yield chunk;
        chunk = [];
      }
    }
    if (chunk.length > 0) yield chunk;
  }
  return { table: table.name, columns, chunks: chunks() };
}
