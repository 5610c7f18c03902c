/**
 * Prints the query plan of every history query on SQLite and PostgreSQL
 * (`npx tsx bench/query-plans.ts`), on stores filled with the recovery benchmark's stream
 * (BENCH_COMMANDS, 60,000: orders, fills, bills and funding records of 200 accounts), with
 * real projection rows, and PostgreSQL's statistics analysed. docs/persistence.md shows the
 * output.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Exchange } from '../src/engine/exchange.ts';
import { openPostgresStore } from '../src/persistence/postgres/postgres-store.ts';
import { billsSql, fillsSql, fundingSql, orderSql, ordersSql, type Sql } from '../src/persistence/queries.ts';
import { openSqliteStore } from '../src/persistence/sqlite/sqlite-store.ts';
import { billPairsSql } from '../src/persistence/bill-pairs.ts';
import type { JournalEntry } from '../src/ports/store.ts';
import { benchDatabase } from './support/bourse-child.ts';
import { journal } from './recovery.bench.ts';

const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 60_000);

/** The journal again, this time with the events, so the projections fill. */
function withEvents(commands: readonly JournalEntry[]): JournalEntry[] {
  const exchange = new Exchange();
  return commands.map((entry) => ({ ...entry, events: exchange.execute(entry.command).events }));
}

async function main(): Promise<void> {
  const entries = withEvents(journal(COMMANDS).entries);
  const uid = '1000000101';
  const queries: [string, Sql][] = [
    [
      'bills of one wallet and coin, by cursor',
      billsSql({ uid, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 }),
    ],
    [
      'bills of several wallets, by business type',
      billsSql({ uid, wallets: ['spot', 'margin'], businessTypes: ['deposit'], limit: 100 }),
    ],
    [
      'bills of the unified wallet, one category, by cursor',
      billsSql({ uid, wallets: ['unified'], categories: ['USDT-FUTURES'], idLessThan: '9', limit: 100 }),
    ],
    [
      'bill pairs of one wallet and coin, by cursor',
      billPairsSql({ uid, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 }) as Sql,
    ],
    [
      'bill pairs beside their fills, of one wallet and coin, by cursor',
      billPairsSql(
        { uid, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 },
        'fills_with_bills',
      ) as Sql,
    ],
    ['deposit/withdrawal records', fundingSql(uid, 100)],
    ['order by id', orderSql(uid, { orderId: '100000000000001000' })],
    ['order by clientOid', orderSql(uid, { clientOid: 'abc' })],
    [
      'order history by clientOid (closed, one category, time window)',
      ordersSql({
        uid,
        categories: ['SPOT'],
        closedOnly: true,
        clientOid: 'abc',
        startTimeMs: 0,
        endTimeMs: 9e15,
        limit: 100,
      }),
    ],
    [
      'order history (closed, one category, time window, cursor)',
      ordersSql({
        uid,
        categories: ['SPOT'],
        closedOnly: true,
        startTimeMs: 0,
        endTimeMs: 9e15,
        idLessThan: '9',
        limit: 100,
      }),
    ],
    ['fills by cursor', fillsSql({ uid, idLessThan: '9', limit: 100 })],
    ['fills of one order', fillsSql({ uid, orderId: '100000000000001000', limit: 100 })],
  ];
  const cleanups: (() => Promise<void>)[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'bourse-plans-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  try {
    const sqlite = openSqliteStore(join(dir, 'bourse.db'));
    cleanups.unshift(() => sqlite.close());
    const postgres = await openPostgresStore(await benchDatabase(cleanups));
    cleanups.unshift(() => postgres.close());
    for (const store of [sqlite, postgres]) {
      for (let at = 0; at < entries.length; at += 2_000) await store.append(entries.slice(at, at + 2_000));
    }
    sqlite.db.exec('ANALYZE');
    await postgres.query('ANALYZE');
    const rows = sqlite.db.prepare('SELECT COUNT(*) AS n FROM orders').get() as { n: number };
    process.stdout.write(`${entries.length} commands, ${rows.n} orders\n`);
    for (const [title, sql] of queries) {
      process.stdout.write(`\n### ${title}\n\n\`${sql.text}\`\n\nSQLite:\n\n`);
      for (const line of await sqlite.explain(sql)) process.stdout.write(`    ${line}\n`);
      process.stdout.write('\nPostgreSQL:\n\n');
      for (const line of await postgres.explain(sql)) process.stdout.write(`    ${line}\n`);
    }
  } finally {
    for (const cleanup of cleanups) await cleanup();
  }
}

await main();
