/**
 * Same-time comparison of two schemas of one store (not a benchmark table): the same journal
 * of place-batch appends (bench/support/order-batch.ts, BENCH_WORKLOAD entry or crossing) is
 * written to two stores of this checkout, one of them changed first by BENCH_OLD_DDL (SQL
 * statements separated by `;`, run after the store is opened, e.g. the indexes of an earlier
 * version), in alternating chunks of BENCH_CHUNK appends; prints the CPU per order of each
 * (PostgreSQL: its backends; SQLite, written inline: this process), median over the chunks.
 * No HTTP and no engine work in the measured time, so the store's own cost stands out on a
 * busy machine far better than in ab-probe.
 *
 *   BENCH_STORE=postgres BENCH_WORKLOAD=crossing BENCH_OLD_DDL='DROP INDEX …; CREATE INDEX …' \
 *     npx tsx bench/support/schema-ab.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { JournalEntry } from '../../src/ports/store.ts';
import { benchDatabase, median } from './bourse-child.ts';
import { placeBatchAppends, Recorder } from './journal-recorder.ts';
import { ORDERS_PER_REQUEST, type Workload } from './order-batch.ts';
import { fundedSpotAccounts } from './spot-setup.ts';
import { postgresBackends, processCpuMs } from './thread-cpu.ts';

const postgres = process.env.BENCH_STORE === 'postgres';
const workload = (process.env.BENCH_WORKLOAD ?? 'crossing') as Workload;
const APPENDS = Number(process.env.BENCH_APPENDS ?? 4_000);
/** Place-batch requests per append (the sequencer groups those that arrive together). */
const PER_APPEND = Number(process.env.BENCH_PER_APPEND ?? 4);
const CHUNK = Number(process.env.BENCH_CHUNK ?? 250);
const oldDdl = (process.env.BENCH_OLD_DDL ?? '')
  .split(';')
  .map((statement) => statement.trim())
  .filter(Boolean);

interface Side {
  name: string;
  append(entries: JournalEntry[]): Promise<void>;
  cpuMs(): Promise<number>;
  perOrder: number[];
}

const recorder = new Recorder();
const uids = fundedSpotAccounts(recorder, 200);
const setup = recorder.take();
const appends = placeBatchAppends(recorder, uids, workload, APPENDS, PER_APPEND);
const cleanups: (() => Promise<void>)[] = [];

async function side(name: string, ddl: readonly string[]): Promise<Side> {
  if (postgres) {
    const url = await benchDatabase(cleanups);
    const store = await openPostgresStore(url);
    cleanups.unshift(() => store.close());
    for (const statement of ddl) await store.query(statement);
    await store.append(setup);
    const backends = await postgresBackends(url);
    const cpuMs = async () => [...processCpuMs(backends).values()].reduce((sum, ms) => sum + ms, 0);
    return { name, append: (entries) => store.append(entries), cpuMs, perOrder: [] };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bourse-schema-ab-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const store = openSqliteStore(join(dir, 'bourse.db'), { writer: 'inline' });
  cleanups.unshift(() => store.close());
  for (const statement of ddl) store.db.exec(statement);
  await store.append(setup);
  const cpuMs = async () => processCpuMs([process.pid]).get(process.pid) ?? 0;
  return { name, append: (entries) => store.append(entries), cpuMs, perOrder: [] };
}

try {
  const sides = [await side('old schema', oldDdl), await side('this schema', [])];
  for (let at = 0; at < appends.length; at += CHUNK) {
    const chunk = appends.slice(at, at + CHUNK);
    const orders = chunk.length * PER_APPEND * ORDERS_PER_REQUEST;
    for (const one of (at / CHUNK) % 2 === 0 ? sides : [...sides].reverse()) {
      const before = await one.cpuMs();
      for (const entries of chunk) await one.append(entries);
      one.perOrder.push((((await one.cpuMs()) - before) * 1000) / orders);
    }
  }
  const what = postgres ? 'PostgreSQL backends' : 'process (SQLite written inline)';
  for (const one of sides) {
    process.stdout.write(
      `${one.name}: ${median(one.perOrder).toFixed(1)} µs CPU/order, ${what}, median of ` +
        `${one.perOrder.length} chunks (${one.perOrder.map((value) => value.toFixed(1)).join(' ')})\n`,
    );
  }
} finally {
  for (const cleanup of cleanups) await cleanup();
}
