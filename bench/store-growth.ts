/**
 * Store growth per million orders (`npm run bench:growth`; not a test): bourse as a child
 * process (feed, liquidity provider and automatic snapshots off, so the load is the only
 * writer and the whole journal stays), on SQLite and on PostgreSQL, given signed place-batch
 * requests of 20 BTCUSDT orders (bench/support/order-batch.ts) for BENCH_DURATION_MS by
 * BENCH_CONNECTIONS connections in a closed loop. The store's size before and after, split
 * into the journal and the rest (projections: orders, fills, bills, trades, candles), is
 * divided by the orders placed and scaled to a million.
 *
 * Workloads (BENCH_WORKLOADS, both by default): `entry`, immediate-or-cancel orders that
 * trade nothing (one order row each); `crossing`, every sell filling the buy before it (per
 * order: half a trade, a fill, two bills, candle updates).
 *
 * Sizes: SQLite, the pages in use (page_count − freelist_count, times the page size, WAL
 * included: it is read through a connection), per table from dbstat; PostgreSQL,
 * pg_total_relation_size of each table (indexes and TOAST included; dead row versions of
 * updated orders too, until autovacuum reclaims them).
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { join } from 'node:path';
import { benchDatabase, startBourseChild, type BourseChild } from './support/bourse-child.ts';
import { orderBatch, ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { runOrderLoad } from './support/order-load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').filter(Boolean);
const WORKLOADS = (process.env.BENCH_WORKLOADS ?? 'entry,crossing').split(',').filter(Boolean) as Workload[];

interface Sizes {
  journal: number;
  rest: number;
}

function sqliteSizes(dataDir: string): Sizes {
  const db = new Database(join(dataDir, 'bourse.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[];
    const journal = rows.find((row) => row.name === 'journal')?.bytes ?? 0;
    const total = rows.reduce((sum, row) => sum + row.bytes, 0);
    return { journal, rest: total - journal };
  } finally {
    db.close();
  }
}

async function postgresSizes(url: string): Promise<Sizes> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ name: string; bytes: string }>(
      "SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r'",
    );
    const journal = Number(result.rows.find((row) => row.name === 'journal')?.bytes ?? 0);
    const total = result.rows.reduce((sum, row) => sum + Number(row.bytes), 0);
    return { journal, rest: total - journal };
  } finally {
    await client.end();
  }
}

function perMillion(bytes: number, orders: number): string {
  return `${(((bytes / orders) * 1e6) / 1e6).toFixed(0)} MB`;
}

async function measure(store: string, workload: Workload): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const databaseUrl = store === 'postgres' ? await benchDatabase(cleanups) : undefined;
    const child: BourseChild = await startBourseChild({ databaseUrl });
    cleanups.unshift(() => child.stop());
    const dataDir = child.dataDir;
    const sizes = () => (databaseUrl ? postgresSizes(databaseUrl) : Promise.resolve(sqliteSizes(dataDir)));
    const before = await sizes();
    const result = await runOrderLoad({
      host: '127.0.0.1',
      port: child.port,
      path: '/api/v3/trade/place-batch',
      body: orderBatch(workload),
      connections: CONNECTIONS,
      durationMs: DURATION_MS,
      signing: child.trader,
      checkEvery: 50,
    });
    if (result.non200 > 0 || result.refusedItems > 0) throw new Error(`refused: ${result.firstFailure}`);
    const after = await sizes();
    const orders = result.requests * ORDERS_PER_REQUEST;
    const journal = after.journal - before.journal;
    const rest = after.rest - before.rest;
    process.stdout.write(
      `${store} ${workload}: ${orders.toLocaleString('en')} orders; per million orders ` +
        `${perMillion(journal + rest, orders)} (journal ${perMillion(journal, orders)}, ` +
        `projections ${perMillion(rest, orders)})\n`,
    );
  } finally {
    for (const cleanup of cleanups) await cleanup().catch(() => undefined);
  }
}

for (const store of STORES) for (const workload of WORKLOADS) await measure(store, workload);
