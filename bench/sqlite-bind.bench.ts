/**
 * The SQLite writer thread's statement work per order (not a test): the projection rows of
 * place-batch commands (bench/store-append.bench.ts's workloads, BENCH_PER_BATCH (32) commands
 * of 20 BTCUSDT orders per batch, as the projector hands them over), each batch one
 * transaction on a fresh file (WAL, synchronous=OFF so that no fsync is timed), written in
 * this thread three ways, alternately, BENCH_RUNS (11) times; CPU µs per order, least and median:
 * - arguments: StatementSet (statement-set.mjs) as the writer thread runs it, several rows per
 *   call, their values passed as the call's arguments;
 * - arrays: the same calls with each row passed as an array (how rows were bound before
 *   2026-11-26c: better-sqlite3 reads an array element by element through property lookups);
 * - json: each table's rows as one JSON text, `INSERT … SELECT v->>0, … FROM (SELECT value AS v
 *   FROM json_each(?) LIMIT -1 OFFSET 0)`, JSON.stringify included (it would run on the main
 *   thread instead of posting the rows).
 *
 *   npx tsx bench/sqlite-bind.bench.ts
 *   BENCH_WORKLOAD=entry BENCH_RUNS=11 npx tsx bench/sqlite-bind.bench.ts
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { folded } from '../src/persistence/fold-rows.ts';
import { projectionRowsOf } from '../src/persistence/journal-record.ts';
import type { RowBatch, Target, Value } from '../src/persistence/projection.ts';
import { ddl, mergeAssignments, MIGRATIONS } from '../src/persistence/schema.ts';
import { StatementSet } from '../src/persistence/sqlite/statement-set.mjs';
import { median } from './support/bourse-child.ts';
import { placeBatchAppends, Recorder } from './support/journal-recorder.ts';
import { ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { fundedSpotAccounts } from './support/spot-setup.ts';

const WORKLOAD = (process.env.BENCH_WORKLOAD ?? 'crossing') as Workload;
const PER_BATCH = Number(process.env.BENCH_PER_BATCH ?? 32);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const RUNS = Number(process.env.BENCH_RUNS ?? 11);

/** The insert of a target, as sqlite-writer.ts builds it: verb, columns and conflict clause. */
function insertOf(target: Target): { verb: string; columns: string[]; tail: string } {
  const table = target.table;
  const merge = target.mode === 'upsert' && table.merge !== undefined;
  return {
    verb: `${target.mode === 'upsert' && !merge ? 'INSERT OR REPLACE' : 'INSERT OR FAIL'} INTO ${table.name}`,
    columns: table.columns.map(([name]) => name),
    tail: merge
      ? ` ON CONFLICT(${table.primaryKey}) DO UPDATE SET ${mergeAssignments(table, 'sqlite').join(', ')}`
      : '',
  };
}

/** StatementSet with each row bound as an array, as before 2026-11-26c. */
class ArrayStatementSet extends StatementSet {
  override run(index: number, rows: readonly unknown[][]): void {
    const self = this as unknown as {
      entries: { one: Database.Statement }[];
      form(entry: unknown, count: number): Database.Statement;
    };
    const entry = self.entries[index] as { one: Database.Statement };
    let at = 0;
    for (const count of [32, 16, 8, 4, 2, 1]) {
      while (rows.length - at >= count) {
        if (count === 1) entry.one.run(rows[at]);
        else self.form(entry, count).run(...rows.slice(at, at + count));
        at += count;
      }
    }
  }
}

type Writer = (batch: RowBatch) => void;

function templateWriter(set: StatementSet): Writer {
  const bySlot: number[] = [];
  let next = 0;
  return (batch) => {
    for (const target of batch.targets) {
      let index = bySlot[target.slot];
      if (index === undefined) {
        const { verb, columns, tail } = insertOf(target);
        set.add([
          {
            head: `${verb} (${columns.join(', ')}) VALUES `,
            row: `(${columns.map(() => '?').join(', ')})`,
            tail,
          },
        ]);
        bySlot[target.slot] = index = next;
        next += 1;
      }
      // The writer thread receives the rows by structured clone.
      set.run(index, structuredClone(folded(target, batch.rowsOf(target))));
    }
  };
}

function jsonWriter(db: Database.Database): Writer {
  const bySlot: Database.Statement[] = [];
  return (batch) => {
    for (const target of batch.targets) {
      let statement = bySlot[target.slot];
      if (!statement) {
        const { verb, columns, tail } = insertOf(target);
        const select = columns.map((_, at) => `v->>${at}`).join(', ');
        statement = db.prepare(
          `${verb} (${columns.join(', ')}) SELECT ${select} FROM ` +
            `(SELECT value AS v FROM json_each(?) LIMIT -1 OFFSET 0) WHERE true${tail}`,
        );
        bySlot[target.slot] = statement;
      }
      statement.run(JSON.stringify(folded(target, batch.rowsOf(target)) as Value[][]));
    }
  };
}

const WAYS: Record<string, (db: Database.Database) => Writer> = {
  arguments: (db) => templateWriter(new StatementSet(db)),
  arrays: (db) => templateWriter(new ArrayStatementSet(db)),
  json: jsonWriter,
};

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function main(): void {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, 8);
  recorder.take();
  const batches = placeBatchAppends(recorder, uids, WORKLOAD, BATCHES + 1, PER_BATCH).map(projectionRowsOf);
  const orders = BATCHES * PER_BATCH * ORDERS_PER_REQUEST;
  const times = new Map<string, number[]>();
  for (let run = 0; run < RUNS; run += 1) {
    for (const [way, writerOf] of Object.entries(WAYS)) {
      const dir = mkdtempSync(join(tmpdir(), 'bourse-bind-'));
      const db = new Database(join(dir, 'bourse.db'));
      db.pragma('page_size = 8192');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = OFF');
      for (const migration of MIGRATIONS)
        for (const table of migration.tables)
          for (const statement of ddl(table, 'sqlite')) db.exec(statement);
      const write = writerOf(db);
      const transaction = db.transaction((batch: RowBatch) => write(batch));
      // The first batch warms up (statements prepared, JIT); the rest are timed.
      transaction(batches[0] as RowBatch);
      const started = cpuMs();
      for (let at = 1; at < batches.length; at += 1) transaction(batches[at] as RowBatch);
      const list = times.get(way) ?? [];
      list.push(((cpuMs() - started) * 1000) / orders);
      times.set(way, list);
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const lines = [
    `${WORKLOAD}, ${PER_BATCH} commands per batch, ${BATCHES} batches, ${RUNS} runs (Node ${process.version})`,
    '| way | CPU µs/order, least | median |',
    '|---|---:|---:|',
  ];
  for (const [way, list] of times)
    lines.push(`| ${way} | ${Math.min(...list).toFixed(2)} | ${median(list).toFixed(2)} |`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
