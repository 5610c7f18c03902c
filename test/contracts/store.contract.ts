/**
 * The store contract: what every Store implementation must do, run against SQLite
 * (sqlite-store.test.ts) and PostgreSQL (postgres-store.test.ts). The data comes from the
 * production engine (store-workload.ts), so the rows are the rows the server writes.
 */
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { stateHash } from '../../src/engine/state-hash.ts';
import { CorruptJournalError } from '../../src/persistence/journal-record.ts';
import type { AnyStore } from '../../src/persistence/open-store.ts';
import {
  billsSql,
  fillsSql,
  fundingSql,
  orderSql,
  ordersSql,
  type Sql,
} from '../../src/persistence/queries.ts';
import { MIGRATIONS } from '../../src/persistence/schema.ts';
import { billPairsSql } from '../../src/persistence/bill-pairs.ts';
import type { RetentionPolicy } from '../../src/persistence/retention.ts';
import type { Row } from '../../src/persistence/sql-reads.ts';
import type { BillQuery, BillRow, Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { fillsAheadOfTheirBills, tradingWorkload } from './store-workload.ts';

/** One empty store location per test. */
export interface StoreLocation {
  /** Opens the store there (with a retention policy other than the default, if given). */
  open(options?: { retention?: RetentionPolicy }): Promise<AnyStore>;
  /** Runs raw SQL (no parameters) on the location, beside any open store. */
  exec(sql: string): Promise<void>;
  /** A store whose planner prefers indexes even on small tables (PostgreSQL: seq scans off). */
  openForPlans(): Promise<AnyStore>;
}

export interface StoreHarness {
  /** Names the store in test names (e.g. `sqlite`, `sqlite, inline writer`). */
  kind: string;
  location(t: TestContext): Promise<StoreLocation>;
}

export interface ContractTest {
  name: string;
  options?: { timeout?: number };
  body: (t: TestContext) => Promise<void>;
}

async function collect(store: Store, after = 0) {
  const entries: { seq: number; type: string }[] = [];
  for await (const entry of eachRecord(store.journalAfter(after)))
    entries.push({ seq: entry.seq, type: entry.command.type });
  return entries;
}

/** Every projection table (all of schema.ts but the journal and snapshots), rows by primary key. */
export async function dumpTables(store: AnyStore): Promise<Record<string, Row[]>> {
  const dump: Record<string, Row[]> = {};
  for (const migration of MIGRATIONS) {
    for (const table of migration.tables) {
      if (table.name === 'journal' || table.name === 'snapshots') continue;
      const text = `SELECT * FROM ${table.name} ORDER BY ${table.primaryKey}`;
      dump[table.name] =
        store.kind === 'sqlite' ? (store.db.prepare(text).all() as Row[]) : await store.query(text);
    }
  }
  return dump;
}

/** The names of the store's indexes (its own and those of its primary keys), sorted. */
async function indexNames(store: AnyStore): Promise<string[]> {
  const rows =
    store.kind === 'sqlite'
      ? (store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as Row[])
      : await store.query('SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema()');
  return rows.map((row) => String(row.name)).sort();
}

/** The columns of `table`'s primary key, in key order. */
async function primaryKeyOf(store: AnyStore, table: string): Promise<string[]> {
  const rows =
    store.kind === 'sqlite'
      ? (store.db
          .prepare('SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk')
          .all(table) as Row[])
      : await store.query(
          'SELECT a.attname AS name FROM pg_index i, unnest(i.indkey) WITH ORDINALITY k(attnum, n), pg_attribute a ' +
            'WHERE i.indrelid = $1::regclass AND i.indisprimary AND a.attrelid = i.indrelid AND a.attnum = k.attnum ' +
            'ORDER BY k.n',
          [table],
        );
  return rows.map((row) => String(row.name));
}

/**
 * Fills and bills as a store migrated before version 90 holds them: keyed by their id alone,
 * with an index of (uid, exec_id) and of (uid, wallet, bill_id); rows kept.
 */
function beforeVersion90(kind: 'sqlite' | 'postgres'): string {
  if (kind === 'postgres') {
    return (
      'ALTER TABLE fills DROP CONSTRAINT fills_pkey, ADD PRIMARY KEY (exec_id); ' +
      'CREATE INDEX fills_by_uid_exec_id ON fills (uid, exec_id); ' +
      'ALTER TABLE bills DROP CONSTRAINT bills_pkey, ADD PRIMARY KEY (bill_id); ' +
      'CREATE INDEX bills_by_uid_wallet_bill_id ON bills (uid, wallet, bill_id); ' +
      'DELETE FROM schema_migrations WHERE version = 90'
    );
  }
  const fills = 'exec_id, uid, order_id, category, symbol, time_ms, body';
  const bills = 'bill_id, uid, wallet, coin, symbol, amount, fee, balance, business_type, category, time_ms';
  return (
    'CREATE TABLE fills_old (exec_id TEXT PRIMARY KEY, uid TEXT NOT NULL, order_id TEXT NOT NULL, ' +
    'category TEXT NOT NULL, symbol TEXT NOT NULL, time_ms INTEGER NOT NULL, body TEXT NOT NULL); ' +
    `INSERT INTO fills_old (${fills}) SELECT ${fills} FROM fills; DROP TABLE fills; ` +
    'ALTER TABLE fills_old RENAME TO fills; ' +
    'CREATE INDEX fills_by_uid_exec_id ON fills (uid, exec_id); ' +
    'CREATE INDEX fills_by_uid_order_id_exec_id ON fills (uid, order_id, exec_id); ' +
    'CREATE TABLE bills_old (bill_id TEXT PRIMARY KEY, uid TEXT NOT NULL, wallet TEXT NOT NULL, ' +
    'coin TEXT NOT NULL, symbol TEXT NOT NULL, amount TEXT NOT NULL, fee TEXT NOT NULL, balance TEXT NOT NULL, ' +
    'business_type TEXT NOT NULL, category TEXT NOT NULL, time_ms INTEGER NOT NULL); ' +
    `INSERT INTO bills_old (${bills}) SELECT ${bills} FROM bills; DROP TABLE bills; ` +
    'ALTER TABLE bills_old RENAME TO bills; ' +
    'CREATE INDEX bills_by_uid_wallet_bill_id ON bills (uid, wallet, bill_id); ' +
    "CREATE INDEX bills_by_uid_category_bill_id_unified ON bills (uid, category, bill_id) WHERE wallet = 'unified'; " +
    'DELETE FROM schema_migrations WHERE version = 90'
  );
}

/** A limit buy of BTCUSDT far below the market, without a clientOid. */
const LIMIT_BUY = {
  symbol: 'BTCUSDT',
  side: 'buy',
  orderType: 'limit',
  timeInForce: 'gtc',
  stpMode: 'none',
  price: '50000',
  quantity: '0.01',
} as const;

/** Every bill `query` admits, read a page of `query.limit` at a time by idLessThan (20 pages at most). */
export async function billsPagedBack(store: Store, query: BillQuery): Promise<BillRow[]> {
  const paged: BillRow[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 20; page += 1) {
    const rows = await store.bills({ ...query, ...(cursor ? { idLessThan: cursor } : {}) });
    paged.push(...rows);
    if (rows.length < query.limit) break;
    cursor = rows.at(-1)?.billId;
  }
  return paged;
}

async function opened(t: TestContext, location: StoreLocation): Promise<AnyStore> {
  const store = await location.open();
  t.after(() => store.close());
  return store;
}

/** The last journal record's body, damaged in place. */
const TRUNCATE_LAST =
  'UPDATE journal SET body = substr(body, 1, length(body) - 9) WHERE seq = (SELECT MAX(seq) FROM journal)';
const FLIP_LAST =
  "UPDATE journal SET body = replace(body, 'USDT', 'USDC') WHERE seq = (SELECT MAX(seq) FROM journal)";

export function storeContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `append when a batch holds many commands journals them in order (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine } = tradingWorkload();
        await store.append(engine.entries.slice(0, 5));
        await store.append(engine.entries.slice(5));
        assert.equal(await store.lastSeq(), engine.entries.length);
        const read = [];
        for await (const entry of eachRecord(store.journalAfter(0))) read.push(entry);
        assert.deepEqual(
          read,
          engine.entries.map((entry) => ({ seq: entry.seq, command: entry.command })),
          'commands come back equal, bigints included',
        );
        assert.deepEqual(
          (await collect(store, 7)).map((entry) => entry.seq),
          engine.entries.slice(7).map((entry) => entry.seq),
        );
      },
    },
    {
      name: `sizeBytes when many commands are appended grows by at least their journal (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const empty = (await store.sizeBytes?.()) ?? 0;
        // Its tables and indexes: a page each at least (4 KiB SQLite, 8 KiB PostgreSQL).
        assert.ok(empty >= 4096, `${empty}`);
        const { engine } = tradingWorkload();
        const commands = engine.entries.map((entry) => entry.command);
        // 2,000 journal records of the workload's commands, a few hundred bytes each, and no
        // events (so no projection rows): the journal alone grows by over 200 KB.
        const entries = Array.from({ length: 2_000 }, (_, index) => ({
          seq: index + 1,
          command: commands[index % commands.length] as (typeof commands)[number],
          events: [],
        }));
        await store.append(entries);
        const full = (await store.sizeBytes?.()) ?? 0;
        assert.ok(full - empty > 200_000, `${empty} -> ${full}`);
      },
    },
    {
      name: `lastSeq and latestSnapshot when the store is empty are 0 and null (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        assert.equal(await store.lastSeq(), 0);
        assert.equal(await store.latestSnapshot(), null);
        assert.deepEqual(await collect(store), []);
      },
    },
    {
      name: `append when the workload trades projects orders, fills, bills and funding (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine, buyer, seller } = tradingWorkload();
        await store.append(engine.entries);
        const orders = await store.orders({ uid: buyer, limit: 10 });
        // b2 filled (0.2), b1 partly filled (0.05) then cancelled: newest first.
        assert.deepEqual(
          orders.map((order) => [order.clientOid, order.status, order.cumExecQty]),
          [
            ['b2', 'filled', '0.2'],
            ['b1', 'cancelled', '0.05'],
          ],
        );
        const byClientOid = await store.order(buyer, { clientOid: 'b1' });
        assert.equal(byClientOid?.status, 'cancelled');
        const byId = await store.order(seller, { orderId: byClientOid?.orderId ?? '' });
        assert.equal(byId, null, 'an order is found only for its owner');
        const fills = await store.fills({ uid: buyer, limit: 10 });
        assert.deepEqual(fills.map((fill) => fill.execQty).sort(), ['0.05', '0.2']);
        assert.deepEqual(
          (await store.fills({ uid: seller, orderId: fills[0]?.orderId ?? '', limit: 10 })).length,
          0,
          'the seller has no fills of the buyer order',
        );
        const sellerFills = await store.fills({ uid: seller, limit: 10 });
        assert.equal(sellerFills.length, 2);
        const bills = await store.bills({ uid: buyer, wallets: ['spot'], limit: 100 });
        assert.ok(bills.length >= 3, 'deposit and two trades, each with its bills');
        assert.ok(
          bills.every((bill, index) => index === 0 || bill.billId < (bills[index - 1]?.billId ?? '')),
        );
        const usdt = await store.bills({ uid: buyer, wallets: ['spot'], coin: 'USDT', limit: 100 });
        assert.ok(usdt.every((bill) => bill.coin === 'USDT' && typeof bill.amount === 'bigint'));
        const funding = await store.fundingRecords(seller, 10);
        assert.deepEqual(
          funding.map((record) => [record.direction, record.coin, record.amount]),
          [
            ['withdrawal', 'USDT', 1_000n * 10n ** 8n],
            ['deposit', 'BTC', 10n * 10n ** 8n],
          ],
        );
      },
    },
    {
      name: `orders and bills when paged by cursor return each row once, newest first (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine, buyer } = tradingWorkload();
        await store.append(engine.entries);
        const all = await store.bills({ uid: buyer, wallets: ['spot'], limit: 100 });
        assert.deepEqual(await billsPagedBack(store, { uid: buyer, wallets: ['spot'], limit: 2 }), all);
        const oldest = all.at(-1)?.billId ?? '';
        const forward = await store.bills({
          uid: buyer,
          wallets: ['spot'],
          idGreaterThan: oldest,
          limit: 100,
        });
        assert.deepEqual(
          forward.map((bill) => bill.billId),
          all
            .slice(0, -1)
            .map((bill) => bill.billId)
            .reverse(),
          'idGreaterThan pages forwards, oldest first',
        );
        const [newest] = await store.orders({ uid: buyer, limit: 1 });
        const older = await store.orders({ uid: buyer, idLessThan: newest?.orderId ?? '', limit: 10 });
        assert.equal(older.length, 1);
        assert.ok((older[0]?.orderId ?? '') < (newest?.orderId ?? ''));
        const closed = await store.orders({ uid: buyer, closedOnly: true, symbol: 'BTCUSDT', limit: 10 });
        assert.equal(closed.length, 2);
        assert.deepEqual(await store.orders({ uid: buyer, symbol: 'ETHUSDT', limit: 10 }), []);
        assert.deepEqual(await store.orders({ uid: buyer, categories: ['MARGIN'], limit: 10 }), []);
      },
    },
    {
      name: `orders and bills when filtered by id find an old row under limit 1 (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine, buyer } = tradingWorkload();
        await store.append(engine.entries);
        const oldestBill = (await store.bills({ uid: buyer, wallets: ['spot'], limit: 100 })).at(-1);
        assert.ok(oldestBill);
        assert.deepEqual(
          await store.bills({ uid: buyer, wallets: ['spot'], billId: oldestBill.billId, limit: 1 }),
          [oldestBill],
        );
        const oldestOrder = (await store.orders({ uid: buyer, limit: 10 })).at(-1);
        assert.ok(oldestOrder);
        const byId = await store.orders({ uid: buyer, orderId: oldestOrder.orderId, limit: 1 });
        assert.deepEqual(byId, [oldestOrder]);
        const byClientOid = await store.orders({ uid: buyer, clientOid: oldestOrder.clientOid, limit: 1 });
        assert.deepEqual(byClientOid, [oldestOrder]);
        assert.deepEqual(await store.orders({ uid: buyer, orderId: '1', limit: 1 }), []);
      },
    },
    {
      name: `append when an order changes several times in one batch keeps its last state (${kind})`,
      async body(t) {
        const oneBatch = await opened(t, await harness.location(t));
        const oneByOne = await opened(t, await harness.location(t));
        const { engine, buyer, seller } = tradingWorkload();
        await oneBatch.append(engine.entries);
        for (const entry of engine.entries) await oneByOne.append([entry]);
        assert.deepEqual(await dumpTables(oneBatch), await dumpTables(oneByOne), 'every table, row for row');
        for (const uid of [buyer, seller]) {
          assert.deepEqual(
            await oneBatch.orders({ uid, limit: 10 }),
            await oneByOne.orders({ uid, limit: 10 }),
          );
          assert.deepEqual(
            await oneBatch.bills({ uid, wallets: ['spot'], limit: 100 }),
            await oneByOne.bills({ uid, wallets: ['spot'], limit: 100 }),
          );
        }
      },
    },
    {
      name: `append when one entry of the batch cannot be written writes nothing of it, and the store takes appends again once resumed (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine, buyer } = tradingWorkload();
        const split = engine.entries.findIndex((entry) => entry.command.type === 'PlaceOrders');
        await store.append(engine.entries.slice(0, split));
        const before = await store.lastSeq();
        const duplicate = engine.entries[0];
        assert.ok(duplicate);
        await assert.rejects(store.append([...engine.entries.slice(split), duplicate]));
        assert.equal(await store.lastSeq(), before, 'no journal row of the failed batch');
        assert.deepEqual(await store.orders({ uid: buyer, limit: 10 }), [], 'no projection row either');
        if ((store.appendsInFlight ?? 1) > 1) {
          // A store that queues appends refuses those after a failed one until resumed.
          await assert.rejects(store.append(engine.entries.slice(split)), /earlier append failed/);
          assert.equal(await store.lastSeq(), before, 'the append after it is refused unwritten');
        }
        await store.resume?.();
        await store.append(engine.entries.slice(split));
        assert.equal(await store.lastSeq(), engine.entries.length, 'the store takes the next append');
        assert.equal((await store.orders({ uid: buyer, limit: 10 })).length, 2);
      },
    },
    {
      name: `append when one fails while the next is already handed over writes nothing of either, and the store takes appends again once resumed (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        if ((store.appendsInFlight ?? 1) < 2) return t.skip('this store takes one append at a time');
        const { engine, buyer } = tradingWorkload();
        const split = engine.entries.findIndex((entry) => entry.command.type === 'PlaceOrders');
        const middle = split + 1;
        assert.ok(split > 0 && engine.entries.length > middle + 1);
        await store.append(engine.entries.slice(0, split));
        const before = await store.lastSeq();
        const duplicate = engine.entries[0];
        assert.ok(duplicate);
        // The failing append's last record is new, so only the failure itself can stop the next.
        const failing = store.append([duplicate, ...engine.entries.slice(split, middle)]);
        const behind = store.append(engine.entries.slice(middle));
        await assert.rejects(failing);
        await assert.rejects(behind);
        assert.equal(await store.lastSeq(), before, 'no journal row of either batch');
        assert.deepEqual(await store.orders({ uid: buyer, limit: 10 }), [], 'no projection row either');
        await store.resume?.();
        await store.append(engine.entries.slice(split));
        assert.equal(await store.lastSeq(), engine.entries.length, 'the store takes the next append');
        assert.equal((await store.orders({ uid: buyer, limit: 10 })).length, 2);
      },
    },
    {
      name: `saveSnapshot when a newer one is saved makes it the latest (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        await store.saveSnapshot({ seq: 3, timeMs: 30, body: '{"a":1}' });
        await store.saveSnapshot({ seq: 9, timeMs: 90, body: '{"a":2}' });
        await store.saveSnapshot({ seq: 9, timeMs: 91, body: '{"a":3}' });
        assert.deepEqual(await store.latestSnapshot(), { seq: 9, timeMs: 91, body: '{"a":3}' });
      },
    },
    {
      name: `recover when the store holds the stream rebuilds the live engine's state (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const store = await opened(t, location);
        const { engine } = tradingWorkload();
        await store.append(engine.entries);
        const recovered = await recover(store);
        assert.equal(recovered.seq, engine.entries.length);
        assert.equal(stateHash(recovered.exchange.state), stateHash(engine.exchange.state));
      },
    },
    {
      name: `journalAfter when the last record is truncated refuses it with CorruptJournalError (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const store = await opened(t, location);
        const { engine } = tradingWorkload();
        await store.append(engine.entries);
        await location.exec(TRUNCATE_LAST);
        const last = engine.entries.length;
        const seen: number[] = [];
        await assert.rejects(
          async () => {
            for await (const entry of eachRecord(store.journalAfter(0))) seen.push(entry.seq);
          },
          (error: unknown) =>
            error instanceof CorruptJournalError &&
            error.seq === last &&
            error.message.includes(`journal record ${last} fails its checksum`),
        );
        assert.equal(seen.length, last - 1, 'the records before it are intact');
        await assert.rejects(recover(store), CorruptJournalError);
      },
    },
    {
      name: `journalAfter when the journal spans many pages yields every record once, in order, and a damaged record in a later page ends it after exactly the records before it (${kind})`,
      options: { timeout: 60_000 },
      async body(t) {
        const location = await harness.location(t);
        const store = await opened(t, location);
        const count = 12_345;
        const entries = Array.from({ length: count }, (_, index) => ({
          seq: index + 1,
          command: { type: 'AdvanceClock' as const, timeMs: 1_000 + index, ms: 0 },
          events: [],
        }));
        for (let at = 0; at < count; at += 1_000) await store.append(entries.slice(at, at + 1_000));
        let pages = 0;
        const seqs: number[] = [];
        for await (const page of store.journalAfter(0)) {
          pages += 1;
          for (const entry of page) seqs.push(entry.seq);
        }
        assert.ok(pages > 1, `read in ${pages} page(s)`);
        assert.deepEqual(
          seqs,
          entries.map((entry) => entry.seq),
        );
        const after: number[] = [];
        for await (const entry of eachRecord(store.journalAfter(12_000))) after.push(entry.seq);
        assert.deepEqual(
          after,
          entries.slice(12_000).map((entry) => entry.seq),
        );

        const damaged = 9_001;
        await location.exec(`UPDATE journal SET body = substr(body, 2) WHERE seq = ${damaged}`);
        const seen: number[] = [];
        await assert.rejects(
          async () => {
            for await (const entry of eachRecord(store.journalAfter(0))) seen.push(entry.seq);
          },
          (error: unknown) => error instanceof CorruptJournalError && error.seq === damaged,
        );
        assert.equal(seen.length, damaged - 1, 'every record before the damaged one, none after');
        await assert.rejects(recover(store), CorruptJournalError);
      },
    },
    {
      name: `journalAfter when the last record's content was altered refuses it (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const store = await opened(t, location);
        const { engine } = tradingWorkload();
        await store.append(engine.entries.slice(0, 4));
        await location.exec(FLIP_LAST);
        await assert.rejects(recover(store), /journal record 4 fails its checksum/);
      },
    },
    {
      name: `open when reopened keeps the data and applies each migration once (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const first = await location.open();
        const { engine, buyer } = tradingWorkload();
        await first.append(engine.entries);
        await first.close();
        const second = await opened(t, location);
        assert.equal(await second.lastSeq(), engine.entries.length);
        assert.equal((await second.orders({ uid: buyer, limit: 10 })).length, 2);
      },
    },
    {
      name: `order when looked up by clientOid finds a given clientOid and an order's own id (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine, buyer, seller } = tradingWorkload();
        // Placed without a clientOid: the order takes its id as one (client_oid = order_id).
        const [placed] = engine.run({
          type: 'PlaceOrders',
          timeMs: (engine.nowMs += 1_000),
          uid: buyer,
          category: 'SPOT',
          items: [{ ...LIMIT_BUY }],
        }) as { orderId: string }[];
        const ownId = placed?.orderId ?? '';
        await store.append(engine.entries);
        const own = await store.order(buyer, { clientOid: ownId });
        assert.deepEqual([own?.orderId, own?.clientOid], [ownId, ownId]);
        assert.equal(await store.order(seller, { clientOid: ownId }), null, 'only for its owner');
        assert.deepEqual(
          (await store.orders({ uid: buyer, clientOid: ownId, limit: 10 })).map((view) => view.orderId),
          [ownId],
        );
        const given = await store.order(buyer, { clientOid: 'b2' });
        assert.equal(given?.status, 'filled');
        assert.deepEqual(
          (await store.orders({ uid: buyer, clientOid: 'b2', closedOnly: true, limit: 10 })).map(
            (view) => view.orderId,
          ),
          [given?.orderId],
        );
        assert.equal(await store.order(buyer, { clientOid: 'nothing' }), null);
        assert.deepEqual(await store.orders({ uid: buyer, clientOid: 'nothing', limit: 10 }), []);
      },
    },
    {
      name: `bills when the wallet is the unified one are filtered by category (${kind})`,
      async body(t) {
        const store = await opened(t, await harness.location(t));
        const { engine } = tradingWorkload();
        const { uid } = engine.run({
          type: 'CreateAccount',
          timeMs: (engine.nowMs += 1_000),
          kind: 'main',
          parentUid: null,
          mode: 'unified',
          label: '',
        }) as { uid: string };
        for (const coin of ['USDT', 'BTC'])
          engine.run({
            type: 'Deposit',
            timeMs: (engine.nowMs += 1_000),
            uid,
            coin,
            amount: 10n ** 8n,
            wallet: 'unified',
            subType: 'onchain',
          });
        await store.append(engine.entries);
        const all = await store.bills({ uid, wallets: ['unified'], limit: 10 });
        assert.deepEqual(
          all.map((bill) => [bill.coin, bill.category]),
          [
            ['BTC', 'OTHER'],
            ['USDT', 'OTHER'],
          ],
        );
        assert.deepEqual(
          await store.bills({ uid, wallets: ['unified'], categories: ['OTHER'], limit: 10 }),
          all,
        );
        assert.deepEqual(
          await store.bills({ uid, wallets: ['unified'], categories: ['SPOT'], limit: 10 }),
          [],
        );
        assert.deepEqual(await store.bills({ uid, wallets: ['spot'], categories: ['OTHER'], limit: 10 }), []);
      },
    },
    {
      name: `open when the store has the indexes of before version 80 replaces them and reads the same (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const first = await location.open();
        const { engine, buyer } = tradingWorkload();
        await first.append(engine.entries);
        const before = await indexNames(first);
        await first.close();
        // The indexes version 80 changed, as a store migrated before it holds them.
        await location.exec(
          'DROP INDEX orders_by_uid_client_oid_given; DROP INDEX bills_by_uid_category_bill_id_unified; ' +
            'CREATE INDEX orders_by_uid_client_oid ON orders (uid, client_oid); ' +
            'CREATE INDEX bills_by_uid_category_bill_id ON bills (uid, category, bill_id); ' +
            'DELETE FROM schema_migrations WHERE version = 80',
        );
        const second = await opened(t, location);
        assert.deepEqual(await indexNames(second), before);
        assert.ok(before.includes('orders_by_uid_client_oid_given'));
        assert.ok(!before.includes('orders_by_uid_client_oid'));
        assert.ok(!before.includes('bills_by_uid_category_bill_id'));
        assert.equal((await second.order(buyer, { clientOid: 'b1' }))?.status, 'cancelled');
        assert.ok((await second.bills({ uid: buyer, wallets: ['spot'], limit: 100 })).length >= 3);
      },
    },
    {
      name: `open when the store has the keys of before version 90 rebuilds fills and bills by uid, rows kept (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const first = await location.open();
        const { engine, buyer } = tradingWorkload();
        // Fills in `fills`, not beside their bills, as the stores of before version 90 held them.
        await first.append(fillsAheadOfTheirBills(engine.entries, 4));
        const before = { indexes: await indexNames(first), tables: await dumpTables(first) };
        assert.deepEqual(await primaryKeyOf(first, 'fills'), ['uid', 'exec_id']);
        assert.deepEqual(await primaryKeyOf(first, 'bills'), ['uid', 'wallet', 'bill_id']);
        assert.ok(!before.indexes.includes('fills_by_uid_exec_id'));
        assert.ok(!before.indexes.includes('bills_by_uid_wallet_bill_id'));
        const storeKind = first.kind;
        await first.close();
        await location.exec(beforeVersion90(storeKind));
        const old = await opened(t, location);
        assert.deepEqual(await primaryKeyOf(old, 'fills'), ['uid', 'exec_id']);
        assert.deepEqual(await primaryKeyOf(old, 'bills'), ['uid', 'wallet', 'bill_id']);
        assert.deepEqual(await indexNames(old), before.indexes);
        assert.deepEqual(await dumpTables(old), before.tables);
        assert.ok(
          before.tables.fills?.length && before.tables.bills?.length,
          'the workload wrote fills and bills',
        );
        assert.ok((await old.fills({ uid: buyer, limit: 100 })).length > 0);
        const bills = await old.bills({ uid: buyer, wallets: ['spot'], limit: 100 });
        assert.ok(bills.length >= 3);
        // The rebuilt table takes new rows.
        const at = engine.entries.length;
        engine.run({
          type: 'Deposit',
          timeMs: (engine.nowMs += 1_000),
          uid: buyer,
          coin: 'USDT',
          amount: 10n ** 6n,
          wallet: 'spot',
          subType: 'onchain',
        });
        await old.append(engine.entries.slice(at));
        const after = await old.bills({ uid: buyer, wallets: ['spot'], limit: 100 });
        assert.deepEqual(after.slice(1), bills);
        assert.equal(after[0]?.amount, 10n ** 6n);
      },
    },
    {
      name: `open when the store was migrated by a newer version refuses to start (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const store = await location.open();
        await store.close();
        const newer = Math.max(...MIGRATIONS.map((migration) => migration.version)) + 1000;
        await location.exec(`INSERT INTO schema_migrations (version, applied_ms) VALUES (${newer}, 0)`);
        await assert.rejects(location.open(), new RegExp(`schema version\\(s\\) ${newer}`));
      },
    },
    {
      name: `history queries when planned use the index that matches their filter and order (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const store = await location.openForPlans();
        t.after(() => store.close());
        const { engine, buyer } = tradingWorkload();
        await store.append(engine.entries);
        // A query builder that can tell no row matches gives null (nothing to plan).
        const planned: [string, Sql | null][] = [
          ['bills', billsSql({ uid: buyer, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 })],
          ['funding_records', fundingSql(buyer, 100)],
          ['orders', orderSql(buyer, { orderId: '1' })],
          ['orders', orderSql(buyer, { clientOid: 'b1' })],
          ['orders', ordersSql({ uid: buyer, clientOid: 'b1', limit: 100 })],
          [
            'bills',
            billsSql({ uid: buyer, wallets: ['unified'], categories: ['SPOT'], idLessThan: '9', limit: 100 }),
          ],
          ['bills', billsSql({ uid: buyer, wallets: ['unified'], idLessThan: '9', limit: 100 })],
          [
            'orders',
            ordersSql({ uid: buyer, categories: ['SPOT'], closedOnly: true, idLessThan: '9', limit: 100 }),
          ],
          ['fills', fillsSql({ uid: buyer, idLessThan: '9', limit: 100 })],
          ['fills', fillsSql({ uid: buyer, orderId: '1', limit: 100 })],
          [
            'bill_pairs',
            billPairsSql({ uid: buyer, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 }),
          ],
          [
            'bill_pairs',
            billPairsSql({ uid: buyer, wallets: ['unified'], categories: ['SPOT'], limit: 100 }),
          ],
          // The fills reads' other arm, and the bills beside their fills.
          ['fills_with_bills', fillsSql({ uid: buyer, idLessThan: '9', limit: 100 })],
          ['fills_with_bills', fillsSql({ uid: buyer, orderId: '1', limit: 100 })],
          [
            'fills_with_bills',
            billPairsSql(
              { uid: buyer, wallets: ['spot'], coin: 'USDT', idLessThan: '9', limit: 100 },
              'fills_with_bills',
            ),
          ],
        ];
        for (const [table, sql] of planned) {
          assert.ok(sql, table);
          const plan = (await store.explain(sql)).join('\n');
          assert.match(
            plan,
            new RegExp(`${table}_pkey|${table}_by_|sqlite_autoindex_${table}|PRIMARY KEY`),
            `${sql.text}\n${plan}`,
          );
          assert.doesNotMatch(plan, new RegExp(`Seq Scan|^SCAN ${table}$`, 'm'), `${sql.text}\n${plan}`);
          // A clientOid is looked up in the index of given clientOids, never by a scan.
          if (sql.text.includes('client_oid = ?')) assert.match(plan, /orders_by_uid_client_oid_given/, plan);
        }
      },
    },
  ];
}
