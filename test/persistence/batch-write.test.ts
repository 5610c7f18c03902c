/**
 * The write path of both stores: PostgreSQL's one statement per append with one text parameter
 * per table, or JSON for a table whose values the text cannot carry (postgres/batch-write.ts), SQLite's statement per table (inline and in the writer
 * thread). Upserts fold and candles merge as row-by-row writes would; text of every kind is
 * stored exactly, the same on both stores; an append whose last row fails writes nothing and
 * leaves the store usable.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import type { Command } from '../../src/domain/commands.ts';
import type { EngineEvent } from '../../src/domain/events.ts';
import { candleRows } from '../../src/persistence/candle-rows.ts';
import type { AnyStore } from '../../src/persistence/open-store.ts';
import { batchStatement, rowsJson, rowsText } from '../../src/persistence/postgres/batch-write.ts';
import { rowsOfEntries } from '../../src/persistence/journal-record.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { RowBatch, targetOf, type Value } from '../../src/persistence/projection.ts';
import { mergeRows, tableOf } from '../../src/persistence/schema.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { orderOfRow } from '../../src/persistence/view-bodies.ts';
import type { JournalEntry } from '../../src/ports/store.ts';
import { dumpTables } from '../contracts/store.contract.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { databaseFor, postgresTests } from './postgres-test-database.ts';

const ORDERS = targetOf('orders', 'upsert');
const CANDLES = targetOf('candles', 'upsert');
const BILLS = targetOf('bills', 'insert');

function orderRow(orderId: string, status: string, updatedMs: number): Value[] {
  const view = { orderId, status, updatedTimeMs: updatedMs };
  return [orderId, 'u1', `c-${orderId}`, 'SPOT', 'BTCUSDT', status, 1, updatedMs, JSON.stringify(view)];
}

function candleValues(price: string, quantity: string, timeMs: number): Value[][] {
  const batch = new RowBatch();
  for (const write of candleRows('market', 'SPOT', 'BTCUSDT', price, quantity, timeMs)) batch.addWrite(write);
  return batch.rowsOf(CANDLES);
}

/** The rows of text parameter `index` of a statement, split as PostgreSQL splits them (every value text). */
function parameterRows(values: readonly string[], index: number): string[][] {
  return (values[index] as string).split('\u001e').map((line) => line.split('\u001f'));
}

/** Rows as the text parameter carries them: every value as its text. */
function asText(rows: readonly Value[][]): string[][] {
  return rows.map((row) => row.map(String));
}

test('batchStatement when an order is upserted twice in one append keeps one row per order, the last', () => {
  const batch = new RowBatch();
  batch.add(ORDERS, orderRow('o1', 'live', 10));
  batch.add(ORDERS, orderRow('o2', 'live', 11));
  batch.add(ORDERS, orderRow('o1', 'filled', 12));
  const statement = batchStatement(batch);
  assert.ok(statement);
  assert.deepEqual(
    parameterRows(statement.values, 0),
    asText([orderRow('o1', 'filled', 12), orderRow('o2', 'live', 11)]),
  );
  assert.equal(statement.values.length, 1);
  assert.match(
    statement.text,
    /string_to_array\(unnest\(string_to_array\(\$1, chr\(30\)\)\), chr\(31\)\) r OFFSET 0/,
  );
  assert.match(statement.text, /r\[7\]::bigint, r\[8\]::bigint, r\[9\] FROM/);
  assert.match(statement.text, /ON CONFLICT \(order_id\) DO UPDATE SET/);
});

test('batchStatement when a table is keyed by several columns upserts on all of them and updates the others', () => {
  const batch = new RowBatch();
  batch.add(targetOf('fills', 'upsert'), ['e1', 'u1', 'o1', 'SPOT', 'BTCUSDT', 1, '{}']);
  const statement = batchStatement(batch);
  assert.ok(statement);
  assert.match(
    statement.text,
    /ON CONFLICT \(uid, exec_id\) DO UPDATE SET order_id = EXCLUDED\.order_id, category = EXCLUDED\.category, symbol/,
  );
  assert.doesNotMatch(statement.text, /(uid|exec_id) = EXCLUDED/);
});

test('batchStatement when candles of one bucket repeat merges them as the stored merge rules do', () => {
  // Three trades in the minute from 60,000 ms: 60000 × 0.5, 61000 × 0.25, 59000 × 1.
  const trades: [string, string, number][] = [
    ['60000', '0.5', 60_000],
    ['61000', '0.25', 60_500],
    ['59000', '1', 61_000],
  ];
  const batch = new RowBatch();
  for (const [price, quantity, timeMs] of trades)
    for (const row of candleValues(price, quantity, timeMs)) batch.add(CANDLES, row);
  const statement = batchStatement(batch);
  assert.ok(statement);
  const rows = parameterRows(statement.values, 0);
  assert.equal(rows.length, 2, 'one 1m and one 1h row');
  const table = tableOf('candles');
  const named = (row: Value[]) =>
    Object.fromEntries(CANDLES.columns.map((column, at) => [column, row[at] as Value]));
  // The reference: schema.ts mergeRows over the named rows, one by one.
  const expected = new Map<string, Record<string, Value>>();
  for (const [price, quantity, timeMs] of trades) {
    for (const row of candleValues(price, quantity, timeMs).map(named)) {
      const older = expected.get(row.id as string);
      expected.set(row.id as string, older ? mergeRows(table, older, row) : row);
    }
  }
  assert.deepEqual(
    rows.map(named),
    asText([...expected.values()].map((row) => CANDLES.columns.map((column) => row[column] as Value))).map(
      named,
    ),
  );
  const minute = named(rows[0] as Value[]);
  // open 60000, high 61000, low 59000, close 59000 (scaled by 10^8); base 1.75; quote
  // 30000 + 15250 + 59000 = 104250; 3 trades.
  assert.deepEqual(
    [
      minute.open,
      minute.high,
      minute.low,
      minute.close,
      minute.base_volume,
      minute.quote_volume,
      minute.trades,
    ],
    ['6000000000000', '6100000000000', '5900000000000', '5900000000000', '175000000', '10425000000000', '3'],
  );
});

test('batchStatement when given inserts keeps every row, and statements differ only by the targets touched', () => {
  const bill = (id: string): Value[] => [id, 'u1', 'spot', 'USDT', '', '1', '0', '1', 'deposit', 'SPOT', 5];
  const one = new RowBatch();
  one.add(BILLS, bill('b1'));
  one.add(BILLS, bill('b2'));
  const two = new RowBatch();
  two.add(BILLS, bill('b3'));
  const [first, second] = [batchStatement(one), batchStatement(two)];
  assert.ok(first && second);
  assert.deepEqual(parameterRows(first.values, 0), asText([bill('b1'), bill('b2')]));
  assert.equal(first.text, second.text);
  assert.equal(first.name, second.name);
  assert.doesNotMatch(first.text, /ON CONFLICT/);
  assert.equal(batchStatement(new RowBatch()), null);
});

test('batchStatement when guarded by the previous append checks that record after the rows, and differs from the unguarded statement', () => {
  const bill = (id: string): Value[] => [id, 'u1', 'spot', 'USDT', '', '1', '0', '1', 'deposit', 'SPOT', 5];
  const batch = new RowBatch();
  batch.add(BILLS, bill('b1'));
  const guarded = batchStatement(batch, { seq: 41, body: '{"type":"Deposit"}' });
  const plain = batchStatement(batch);
  assert.ok(guarded && plain);
  assert.deepEqual(guarded.values.slice(1), ['41', '{"type":"Deposit"}']);
  assert.match(
    guarded.text,
    /SELECT 1 \/ \(SELECT count\(\*\) FROM journal WHERE seq = \$2::bigint AND body = \$3\)$/,
  );
  assert.equal(plain.values.length, 1);
  assert.match(plain.text, /SELECT 1$/);
  assert.notEqual(guarded.name, plain.name);
});

test('batchStatement when a value holds a separator character sends that table as JSON, and the others as text', () => {
  const batch = new RowBatch();
  const row = orderRow('o1', 'live', 10);
  row[ORDERS.columns.indexOf('client_oid')] = 'a\u001eb';
  batch.add(ORDERS, row);
  batch.add(ORDERS, orderRow('o2', 'live', 11));
  const bill: Value[] = ['b1', 'u1', 'spot', 'USDT', '', '1', '0', '1', 'deposit', 'SPOT', 5];
  batch.add(BILLS, bill);
  const statement = batchStatement(batch);
  assert.ok(statement);
  assert.deepEqual(JSON.parse(statement.values[0] as string), [row, orderRow('o2', 'live', 11)]);
  assert.match(statement.text, /jsonb_array_elements\(\$1::jsonb\) e/);
  assert.deepEqual(parameterRows(statement.values, 1), asText([bill]));
  assert.match(statement.text, /string_to_array\(\$2, chr\(30\)\)/);
  // The same targets in text form are another statement.
  const plain = new RowBatch();
  plain.add(ORDERS, orderRow('o3', 'live', 12));
  plain.add(BILLS, bill);
  const other = batchStatement(plain);
  assert.ok(other);
  assert.notEqual(other.name, statement.name);
  assert.doesNotMatch(other.text, /jsonb/);
});

test('rowsText when a value holds either separator or is missing gives null, else the rows joined', () => {
  assert.equal(
    rowsText(
      [
        ['a', 1],
        ['b', 2],
      ],
      2,
    ),
    'a\u001f1\u001eb\u001f2',
  );
  assert.equal(rowsText([['', '']], 2), '\u001f');
  assert.equal(rowsText([['a\u001fb', 1]], 2), null);
  assert.equal(
    rowsText(
      [
        ['a', 1],
        ['b\u001e', 2],
      ],
      2,
    ),
    null,
  );
  assert.equal(rowsText([['a', undefined as unknown as Value]], 2), null);
  assert.equal(rowsText([['a', null as unknown as Value]], 2), null);
  assert.equal(rowsText([['a']], 2), null);
});

test('rowsJson when a value holds a lone surrogate writes U+FFFD in its place, and leaves escaped text alone', () => {
  assert.equal(rowsJson([['a\ud800b', 1]]), '[["a\ufffdb",1]]');
  assert.equal(rowsJson([['\udc00', 'x\ud83d\ude00']]), '[["\ufffd","x\ud83d\ude00"]]');
  // A JSON body holding the escape itself (a backslash, then u, d, 8, 0, 0) is text like any other.
  const body = JSON.stringify({ note: '\ud800' });
  assert.equal(body, '{"note":"\\ud800"}');
  assert.equal(JSON.parse(rowsJson([[body]]))[0][0], body);
});

// ---- Through the stores ------------------------------------------------------------------

const STRANGE = [
  'quote " apostrophe \' backslash \\ slash /',
  'newline \n tab \t return \r bell \u0007 unit separator \u001f',
  'braces {} [] commas , colon : NULL null',
  'é ü ß 中文 🚀 \u2028 \u2029',
  '',
  '  spaced  ',
];

/** Entries whose rows carry every kind of text: in the order rows, bodies and a bill. */
function strangeEntries(firstSeq: number, texts: readonly string[] = STRANGE): JournalEntry[] {
  return texts.map((text, index) => {
    const seq = firstSeq + index;
    const order = {
      orderId: `o${seq}`,
      clientOid: text,
      uid: 'u1',
      category: 'SPOT',
      symbol: 'BTCUSDT',
      status: 'live',
      cancelReason: text,
      createdTimeMs: 1_000 + seq,
      updatedTimeMs: 2_000 + seq,
    };
    const events = [
      { type: 'OrderUpdated', order },
      {
        type: 'BillPosted',
        billId: `b${seq}`,
        uid: 'u1',
        wallet: 'spot',
        coin: 'USDT',
        symbol: text,
        amount: -12_345n,
        fee: 0n,
        balanceAfter: 10n ** 20n,
        businessType: 'trade',
        category: 'SPOT',
        timeMs: 3_000 + seq,
      },
    ] as unknown as EngineEvent[];
    const command = {
      type: 'CreateAccount',
      timeMs: seq,
      label: text,
      amount: 10n ** 19n,
    } as unknown as Command;
    return { seq, command, events };
  });
}

interface Opened {
  store: AnyStore;
  name: string;
}

function sqliteStores(t: TestContext): Opened[] {
  const dir = makeTempDir('bourse-batch-');
  t.after(() => removeDir(dir));
  return (['inline', 'thread'] as const).map((writer) => {
    const store = openSqliteStore(join(dir, `${writer}.db`), { writer });
    t.after(() => store.close());
    return { store, name: `sqlite (${writer})` };
  });
}

async function journalRows(store: AnyStore): Promise<Record<string, unknown>[]> {
  const text = 'SELECT seq, time_ms, type, body, checksum FROM journal ORDER BY seq';
  return store.kind === 'sqlite'
    ? (store.db.prepare(text).all() as Record<string, unknown>[])
    : await store.query(text);
}

async function assertStrangeTextKept(stores: Opened[], texts: readonly string[] = STRANGE): Promise<void> {
  for (const { store, name } of stores) {
    await store.append(strangeEntries(1, texts));
    const records = [];
    for await (const record of journalRecords(store)) records.push(record);
    assert.equal(records.length, texts.length, `${name}: every record reads back and checks`);
    const orders = await store.orders({ uid: 'u1', limit: 100 });
    const notes = orders.map((order) => order.cancelReason).sort();
    // Bodies are JSON: a lone surrogate in them is an escape, kept as it was.
    assert.deepEqual(notes, [...texts].sort(), `${name}: order bodies`);
  }
  const [first, ...others] = stores;
  assert.ok(first);
  const reference = { tables: await dumpTables(first.store), journal: await journalRows(first.store) };
  for (const { store, name } of others) {
    assert.deepEqual(
      { tables: await dumpTables(store), journal: await journalRows(store) },
      reference,
      `${name} stores what ${first.name} stores, byte for byte`,
    );
  }
}

/** Journal records however this build's journalAfter yields them (one by one or in pages). */
async function* journalRecords(store: AnyStore): AsyncIterable<unknown> {
  for await (const item of store.journalAfter(0) as AsyncIterable<unknown>) {
    if (Array.isArray(item)) yield* item;
    else yield item;
  }
}

async function assertFailedAppendWritesNothing(stores: Opened[]): Promise<void> {
  for (const { store, name } of stores) {
    await store.append(strangeEntries(1).slice(0, 2));
    const before = { tables: await dumpTables(store), journal: await journalRows(store) };
    // Seq 3, 4 and 5 are new, but the last bill reuses bill b1: bills are the last table
    // written, after the journal and order rows of all three.
    const failing = strangeEntries(3).slice(0, 3);
    const last = failing[2] as JournalEntry;
    failing[2] = {
      ...last,
      events: last.events.map((event) => (event.type === 'BillPosted' ? { ...event, billId: 'b1' } : event)),
    };
    await assert.rejects(store.append(failing), /UNIQUE|duplicate key/, `${name}: the append rejects`);
    assert.deepEqual(
      { tables: await dumpTables(store), journal: await journalRows(store) },
      before,
      `${name}: nothing of the failed append is written`,
    );
    // A store that queues appends refuses the ones after a failure until resumed (ports/store.ts).
    await store.resume?.();
    await store.append(strangeEntries(3).slice(0, 2));
    assert.equal((await journalRows(store)).length, 4, `${name}: the next append succeeds once resumed`);
  }
}

test('append when text holds quotes, escapes, control characters and non-ASCII stores it exactly (SQLite inline and thread)', async (t) => {
  await assertStrangeTextKept(sqliteStores(t));
});

test('append when the last row of a batch fails writes none of it and the store takes appends again once resumed (SQLite inline and thread)', async (t) => {
  await assertFailedAppendWritesNothing(sqliteStores(t));
});

await postgresTests('batch-write tests', [
  {
    name: 'append when text holds quotes, escapes, control characters and non-ASCII stores exactly what SQLite stores (PostgreSQL)',
    async body(t) {
      const [sqlite] = sqliteStores(t);
      const postgres = await openPostgresStore((await databaseFor(t)).url);
      t.after(() => postgres.close());
      assert.ok(sqlite);
      await assertStrangeTextKept([sqlite, { store: postgres, name: 'postgres' }]);
    },
  },
  {
    name: 'append when text holds quotes, escapes, control characters and non-ASCII but no separator sends it as text and stores exactly what SQLite stores (PostgreSQL)',
    async body(t) {
      const [sqlite] = sqliteStores(t);
      const postgres = await openPostgresStore((await databaseFor(t)).url);
      t.after(() => postgres.close());
      assert.ok(sqlite);
      const texts = STRANGE.map((text) => text.replaceAll('\u001e', '_').replaceAll('\u001f', '_'));
      const statement = batchStatement(rowsOfEntries(strangeEntries(1, texts)));
      assert.doesNotMatch(statement?.text ?? '', /jsonb/, 'every table goes as text');
      await assertStrangeTextKept([sqlite, { store: postgres, name: 'postgres' }], texts);
    },
  },
  {
    name: 'append when a text value holds a lone surrogate stores U+FFFD in its place (PostgreSQL)',
    async body(t) {
      const postgres = await openPostgresStore((await databaseFor(t)).url);
      t.after(() => postgres.close());
      // jsonb refuses the escape JSON.stringify writes for it; the driver's UTF-8 encoding of
      // a text parameter (the form before) wrote U+FFFD. (SQLite stores the surrogate's
      // three bytes.) Inside a JSON body the surrogate is an escape and stays as it was.
      await postgres.append(strangeEntries(1, ['lone \ud800 surrogate']));
      const [order] = await postgres.query('SELECT client_oid, body FROM orders');
      assert.equal(order?.client_oid, 'lone \ufffd surrogate');
      assert.ok(order);
      assert.equal(orderOfRow(order).cancelReason, 'lone \ud800 surrogate');
    },
  },
  {
    name: 'append when the last row of a batch fails writes none of it and the store takes appends again once resumed (PostgreSQL)',
    async body(t) {
      const postgres = await openPostgresStore((await databaseFor(t)).url);
      t.after(() => postgres.close());
      await assertFailedAppendWritesNothing([{ store: postgres, name: 'postgres' }]);
    },
  },
]);

test('SQLite append when candles of one bucket repeat in and across appends stores what one append per trade stores (inline and thread)', async (t) => {
  // Five trades, three in the minute from 60,000 ms and two in the next; the first three are
  // one append (their candle rows fold into one per resolution), the last two another.
  const trades: [string, string, number][] = [
    ['60000', '0.5', 60_000],
    ['61000', '0.25', 60_500],
    ['59000', '1', 61_000],
    ['60500', '2', 121_000],
    ['60400', '0.1', 121_500],
  ];
  const entries: JournalEntry[] = trades.map(([price, quantity, timeMs], index) => ({
    seq: index + 1,
    command: { type: 'AdvanceClock', timeMs, ms: 0 },
    events: [
      {
        type: 'TradeRecorded',
        tradeId: `t${index}`,
        category: 'SPOT',
        symbol: 'BTCUSDT',
        price,
        quantity,
        side: 'buy',
        timeMs,
      },
    ],
  }));
  const [grouped, single] = ['grouped', 'single'].map((name) => {
    const dir = makeTempDir(`bourse-candles-${name}-`);
    t.after(() => removeDir(dir));
    return dir;
  });
  for (const writer of ['inline', 'thread'] as const) {
    const folded = openSqliteStore(join(grouped as string, `${writer}.db`), { writer });
    const oneByOne = openSqliteStore(join(single as string, `${writer}.db`), { writer });
    t.after(() => Promise.all([folded.close(), oneByOne.close()]));
    await folded.append(entries.slice(0, 3));
    await folded.append(entries.slice(3));
    for (const entry of entries) await oneByOne.append([entry]);
    const candles = (store: AnyStore) => dumpTables(store).then((tables) => tables.candles);
    const expected = await candles(oneByOne);
    // Market candles and, the takers all buying, taker_buy ones: two 1m buckets and one 1h each.
    assert.equal(expected?.length, 6, 'two 1m buckets and one 1h bucket, market and taker_buy');
    assert.deepEqual(await candles(folded), expected, `${writer}: the same candles`);
  }
});
