/**
 * The stored schema, once for every store: tables, columns and indexes, in forward-only
 * versioned migrations. Each store turns a Table into its own DDL (`ddl`), so SQLite and
 * PostgreSQL always hold the same tables and the same indexes.
 */
export type ColumnType = 'text' | 'integer';

export interface Table {
  name: string;
  columns: readonly (readonly [name: string, type: ColumnType])[];
  /** The column whose value identifies a row on its own (ids are global): upserts fold by it. */
  primaryKey: string;
  /**
   * Columns stored ahead of `primaryKey` in the primary key (`keyColumns`), so the key's own
   * index serves the queries by them and no second index is needed: fills and bills (since
   * version 90), whose ids no query looks up without the uid. The id alone still identifies a
   * row, so the composite key is as unique as the id.
   */
  keyPrefix?: readonly string[];
  /**
   * Each index lists its columns; its name is derived from the table and columns. A partial
   * index (`PartialIndex`) holds only the rows its condition admits.
   */
  indexes: readonly Index[];
  /**
   * Tables whose upserts merge into the stored row instead of replacing it (candles): how
   * each column combines; columns not named keep the stored value. See mergeAssignments.
   */
  merge?: Readonly<Record<string, MergeRule>>;
  /**
   * The columns a later row of the same key may change (orders: status, updated_ms, body);
   * every other column keeps its first value for the row's whole life. SQLite then writes an
   * upsert as an update of these columns in place (`ON CONFLICT … DO UPDATE`), which leaves
   * the indexes of the other columns untouched, instead of deleting and inserting the row in
   * every index (`INSERT OR REPLACE`: 2.4 × the CPU per row; docs/performance.md, 2026-11-26g).
   */
  updatedColumns?: readonly string[];
}

/** How an upsert combines a column with the stored row (integer columns for max/min/sum). */
export type MergeRule = 'replace' | 'max' | 'min' | 'sum';

export type Index = readonly string[] | PartialIndex;

/**
 * An index of the rows `where` admits (both dialects' syntax), named with `suffix` after its
 * columns. A query can use it only when its own WHERE holds `where` word for word (SQLite's
 * rule; PostgreSQL's is looser), so the queries of queries.ts repeat it.
 */
export interface PartialIndex {
  columns: readonly string[];
  where: string;
  suffix: string;
}

export interface Migration {
  version: number;
  tables: readonly Table[];
  /**
   * Indexes of tables created by earlier migrations that change: `drop` the indexes named
   * (if they exist), then create every index of the tables named in `create` that does not
   * exist yet, as schema.ts defines it now. A table definition always shows its indexes as they
   * are now; a store made after the change creates them with the table, and then finds
   * nothing to drop or create here.
   */
  indexes?: { drop: readonly string[]; create: readonly string[] };
  /**
   * Tables of earlier migrations given the primary key schema.ts defines now, rows kept (run
   * before `indexes`): SQLite copies the table into a new one and renames it (its only way to
   * change a key), which also recreates every index the table has now; PostgreSQL replaces
   * the key's constraint in place. On a store made after the change the table is rebuilt
   * as it is, empty and unchanged.
   */
  rebuild?: readonly string[];
}

/** Orders whose clientOid was given (not their own id): see clientOidFilter in queries.ts. */
export const ORDERS_BY_GIVEN_CLIENT_OID: PartialIndex = {
  columns: ['uid', 'client_oid'],
  where: 'client_oid <> order_id',
  suffix: 'given',
};

/** A fill's columns: the table `fills`, and the first columns of `fills_with_bills`. */
const FILL_COLUMNS: Table['columns'] = [
  ['exec_id', 'text'],
  ['uid', 'text'],
  ['order_id', 'text'],
  ['category', 'text'],
  ['symbol', 'text'],
  ['time_ms', 'integer'],
  ['body', 'text'],
];

/** The unified account's bills, by category: see billsSql in queries.ts. */
export const UNIFIED_BILLS_BY_CATEGORY: PartialIndex = {
  columns: ['uid', 'category', 'bill_id'],
  where: "wallet = 'unified'",
  suffix: 'unified',
};

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    tables: [
      {
        name: 'journal',
        columns: [
          ['seq', 'integer'],
          ['time_ms', 'integer'],
          ['type', 'text'],
          ['body', 'text'],
          ['checksum', 'integer'],
        ],
        primaryKey: 'seq',
        indexes: [],
      },
      {
        name: 'snapshots',
        columns: [
          ['seq', 'integer'],
          ['time_ms', 'integer'],
          ['body', 'text'],
        ],
        primaryKey: 'seq',
        indexes: [],
      },
      {
        name: 'bills',
        columns: [
          ['bill_id', 'text'],
          ['uid', 'text'],
          ['wallet', 'text'],
          ['coin', 'text'],
          ['symbol', 'text'],
          ['amount', 'text'],
          ['fee', 'text'],
          ['balance', 'text'],
          ['business_type', 'text'],
          ['category', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'bill_id',
        // The key (uid, wallet, bill_id) serves every bill query (since version 90; before, an
        // index of its own). Outside the unified account a wallet's bills are of its own
        // category (a filter on the key costs next to nothing); the unified wallet's bills are
        // of every category, so those alone are indexed by category too (since version 80).
        keyPrefix: ['uid', 'wallet'],
        indexes: [UNIFIED_BILLS_BY_CATEGORY],
      },
      {
        name: 'funding_records',
        columns: [
          ['record_id', 'text'],
          ['tx_id', 'text'],
          ['uid', 'text'],
          ['coin', 'text'],
          ['amount', 'text'],
          ['direction', 'text'],
          ['sub_type', 'text'],
          ['status', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'record_id',
        indexes: [['uid', 'record_id']],
      },
    ],
  },
  {
    version: 2,
    tables: [
      {
        name: 'orders',
        columns: [
          ['order_id', 'text'],
          ['uid', 'text'],
          ['client_oid', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['status', 'text'],
          ['created_ms', 'integer'],
          ['updated_ms', 'integer'],
          ['body', 'text'],
        ],
        primaryKey: 'order_id',
        // An order placed without a clientOid takes its id as one (client_oid = order_id):
        // the clientOid index leaves those out (since version 80), the order id finds them.
        indexes: [['uid', 'category', 'order_id'], ORDERS_BY_GIVEN_CLIENT_OID],
        // An order's id, account, clientOid, market and creation never change (the engine
        // assigns them once; modify keeps them, replace makes a new order).
        updatedColumns: ['status', 'updated_ms', 'body'],
      },
      {
        name: 'fills',
        columns: FILL_COLUMNS,
        primaryKey: 'exec_id',
        // The key (uid, exec_id) serves a uid's fills (since version 90; before, an index of its own).
        keyPrefix: ['uid'],
        indexes: [['uid', 'order_id', 'exec_id']],
      },
      {
        name: 'trades',
        columns: [
          ['trade_id', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['price', 'text'],
          ['quantity', 'text'],
          ['side', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'trade_id',
        indexes: [['category', 'symbol', 'trade_id']],
      },
    ],
  },
  {
    // Transfers, the broker's sub-account deposit/withdrawal records, agents' customers, KYC
    // results and commissions (docs/subaccounts.md, docs/broker.md). Money in minor units.
    version: 10,
    tables: [
      {
        name: 'transfers',
        columns: [
          ['transfer_id', 'text'],
          ['uid', 'text'],
          ['kind', 'text'],
          ['from_uid', 'text'],
          ['to_uid', 'text'],
          ['client_oid', 'text'],
          ['coin', 'text'],
          ['from_type', 'text'],
          ['from_symbol', 'text'],
          ['to_type', 'text'],
          ['to_symbol', 'text'],
          ['amount', 'text'],
          ['status', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'transfer_id',
        indexes: [
          ['uid', 'kind', 'transfer_id'],
          ['to_uid', 'kind', 'transfer_id'],
        ],
      },
      {
        name: 'broker_funding',
        columns: [
          ['record_id', 'text'],
          ['parent_uid', 'text'],
          ['uid', 'text'],
          ['tx_id', 'text'],
          ['coin', 'text'],
          ['direction', 'text'],
          ['sub_type', 'text'],
          ['amount', 'text'],
          ['status', 'text'],
          ['created_ms', 'integer'],
          ['updated_ms', 'integer'],
        ],
        primaryKey: 'record_id',
        indexes: [['parent_uid', 'record_id']],
      },
      {
        name: 'agent_customers',
        columns: [
          ['customer_uid', 'text'],
          ['agent_uid', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'customer_uid',
        indexes: [['agent_uid', 'customer_uid']],
      },
      {
        name: 'agent_kyc',
        columns: [
          ['uid', 'text'],
          ['agent_uid', 'text'],
          ['result', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'uid',
        indexes: [['agent_uid', 'uid']],
      },
      {
        name: 'commissions',
        columns: [
          ['record_id', 'text'],
          ['agent_uid', 'text'],
          ['uid', 'text'],
          ['date_ms', 'integer'],
          ['coin', 'text'],
          ['symbol', 'text'],
          ['category', 'text'],
          ['deal_amount', 'text'],
          ['fee', 'text'],
          ['fee_paid', 'text'],
          ['rebate_amount', 'text'],
          ['user_rebate_amount', 'text'],
          ['day_total_rebate', 'text'],
          ['total_rebate', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'record_id',
        indexes: [['agent_uid', 'record_id']],
      },
    ],
  },
  {
    version: 3,
    tables: [
      {
        name: 'position_history',
        columns: [
          ['position_id', 'text'],
          ['uid', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['closed_ms', 'integer'],
          ['body', 'text'],
        ],
        primaryKey: 'position_id',
        indexes: [['uid', 'category', 'position_id']],
      },
    ],
  },
  {
    // Market data (src/market): one-minute and one-hour candles of trades and index prices,
    // merged on every trade (persistence/candle-rows.ts); numbers are integers scaled by 10^8.
    version: 20,
    tables: [
      {
        name: 'candles',
        columns: [
          ['id', 'text'],
          ['kind', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['resolution', 'text'],
          ['bucket_ms', 'integer'],
          ['open', 'integer'],
          ['high', 'integer'],
          ['low', 'integer'],
          ['close', 'integer'],
          ['base_volume', 'integer'],
          ['quote_volume', 'integer'],
          ['trades', 'integer'],
          ['updated_ms', 'integer'],
        ],
        primaryKey: 'id',
        indexes: [['kind', 'category', 'symbol', 'resolution', 'bucket_ms']],
        merge: {
          high: 'max',
          low: 'min',
          close: 'replace',
          base_volume: 'sum',
          quote_volume: 'sum',
          trades: 'sum',
          updated_ms: 'replace',
        },
      },
    ],
  },
  {
    // Plan orders (engine/triggers, docs/triggers.md): one row per plan, upserted on every
    // change; history endpoints read the ended ones, newest first.
    version: 40,
    tables: [
      {
        name: 'plans',
        columns: [
          ['plan_id', 'text'],
          ['uid', 'text'],
          ['client_oid', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['plan_type', 'text'],
          ['status', 'text'],
          ['created_ms', 'integer'],
          ['updated_ms', 'integer'],
          ['body', 'text'],
        ],
        primaryKey: 'plan_id',
        indexes: [
          ['uid', 'category', 'plan_id'],
          ['uid', 'client_oid'],
        ],
      },
    ],
  },
  {
    // Market statistics (src/market/market-stats.ts, docs/market-data.md): every funding
    // settlement of a perpetual (history-fund-rate), and the life of every closed position by
    // symbol and close time (the long/short ratios of past periods).
    version: 47,
    tables: [
      {
        name: 'funding_rates',
        columns: [
          ['id', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['funding_rate', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'id',
        indexes: [['category', 'symbol', 'time_ms']],
      },
      {
        name: 'position_spans',
        columns: [
          ['position_id', 'text'],
          ['uid', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['hold_side', 'text'],
          ['size', 'text'],
          ['opened_ms', 'integer'],
          ['closed_ms', 'integer'],
        ],
        primaryKey: 'position_id',
        indexes: [['category', 'symbol', 'closed_ms']],
      },
    ],
  },
  {
    // Wallet records (docs/wallet.md): deposits and withdrawals with their chain, addresses
    // and clientOid, upserted as they settle; convert trades. Money in minor units.
    version: 60,
    tables: [
      {
        name: 'wallet_records',
        columns: [
          ['record_id', 'text'],
          ['uid', 'text'],
          ['direction', 'text'],
          ['coin', 'text'],
          ['amount', 'text'],
          ['status', 'text'],
          ['dest', 'text'],
          ['chain', 'text'],
          ['to_address', 'text'],
          ['from_address', 'text'],
          ['tag', 'text'],
          ['client_oid', 'text'],
          ['tx_id', 'text'],
          ['created_ms', 'integer'],
          ['updated_ms', 'integer'],
        ],
        primaryKey: 'record_id',
        indexes: [['uid', 'direction', 'record_id']],
      },
      {
        name: 'convert_records',
        columns: [
          ['record_id', 'text'],
          ['uid', 'text'],
          ['from_coin', 'text'],
          ['to_coin', 'text'],
          ['from_amount', 'text'],
          ['to_amount', 'text'],
          ['price', 'text'],
          ['fee', 'text'],
          ['trace_id', 'text'],
          ['time_ms', 'integer'],
        ],
        primaryKey: 'record_id',
        indexes: [['uid', 'record_id']],
      },
    ],
  },
  {
    // Spot margin liquidations (docs/trading.md, "Margin"): one row per liquidated wallet,
    // USDT values in minor units, the risk ratio in money units of 1.
    version: 61,
    tables: [
      {
        name: 'margin_liquidations',
        columns: [
          ['liq_id', 'text'],
          ['uid', 'text'],
          ['wallet', 'text'],
          ['symbol', 'text'],
          ['risk_ratio', 'text'],
          ['total_assets', 'text'],
          ['total_debt', 'text'],
          ['liq_fee', 'text'],
          ['start_ms', 'integer'],
          ['end_ms', 'integer'],
        ],
        primaryKey: 'liq_id',
        indexes: [['uid', 'wallet', 'liq_id']],
      },
    ],
  },
  {
    // The projector's position (docs/persistence.md, "Write-behind projections"): the last
    // journal sequence number whose projection rows are written, updated in the same
    // transaction as those rows, so a restart resumes projecting exactly after it.
    version: 70,
    tables: [
      {
        name: 'projector_position',
        columns: [
          ['name', 'text'],
          ['seq', 'integer'],
        ],
        primaryKey: 'name',
        indexes: [],
      },
    ],
  },
  {
    // Fewer index entries per order (docs/performance.md, 2026-11-26c): the clientOid index
    // holds only orders whose clientOid was given, and bills are indexed by category only in
    // the unified wallet (the only one whose bills are of several categories).
    version: 80,
    tables: [],
    indexes: {
      drop: ['orders_by_uid_client_oid', 'bills_by_uid_category_bill_id'],
      create: ['orders', 'bills'],
    },
  },
  {
    // Composite primary keys (docs/performance.md, 2026-11-26d): fills by (uid, exec_id) and
    // bills by (uid, wallet, bill_id), the columns every query of them starts with, so the
    // indexes that served those queries go (one index entry fewer per fill and per bill).
    version: 90,
    tables: [],
    rebuild: ['fills', 'bills'],
    indexes: { drop: ['fills_by_uid_exec_id', 'bills_by_uid_wallet_bill_id'], create: [] },
  },
  {
    // Bills in pairs (docs/persistence.md, "Bills in pairs"): the two bills a command posts one
    // after the other to one wallet for one cause (a fill side's paid and received coins) as
    // one row, the second's id being the first's plus one. A bill row cost the store about as
    // much as a whole fill (docs/performance.md, 2026-11-26e); the bills reads merge the two
    // tables. Bills written before stay in `bills`.
    version: 100,
    tables: [
      {
        name: 'bill_pairs',
        columns: [
          ['bill_id', 'text'],
          ['uid', 'text'],
          ['wallet', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['business_type', 'text'],
          ['time_ms', 'integer'],
          ['coin', 'text'],
          ['coin_next', 'text'],
          // amount, fee, balance of the first bill, then of the second (minor units), split by ','
          ['amounts', 'text'],
        ],
        primaryKey: 'bill_id',
        keyPrefix: ['uid', 'wallet'],
        indexes: [],
      },
    ],
  },
  {
    // Fills with their bills (docs/persistence.md, "Bills in pairs"): a fill whose side's two
    // bills came right before it, as one row holding the fill (the columns of `fills`) and the
    // pair (those of `bill_pairs` the fill does not share: uid, category, symbol and time are
    // the same). Two rows of a crossing order become one; the fills reads take both tables,
    // the bills reads all three. Fills and pairs written before stay where they are.
    version: 110,
    tables: [
      {
        name: 'fills_with_bills',
        columns: [
          ...FILL_COLUMNS,
          ['bill_id', 'text'],
          ['wallet', 'text'],
          ['business_type', 'text'],
          ['coin', 'text'],
          ['coin_next', 'text'],
          ['amounts', 'text'],
        ],
        primaryKey: 'exec_id',
        keyPrefix: ['uid'],
        // The fills reads by order, as `fills`; the bills reads by (uid, wallet, bill_id), as `bill_pairs`.
        indexes: [
          ['uid', 'order_id', 'exec_id'],
          ['uid', 'wallet', 'bill_id'],
        ],
      },
    ],
  },
];

/** The primary key's columns: `keyPrefix`, then the column that identifies a row. */
export function keyColumns(table: Table): readonly string[] {
  return table.keyPrefix ? [...table.keyPrefix, table.primaryKey] : [table.primaryKey];
}

export type Dialect = 'sqlite' | 'postgres';

export function ddl(table: Table, dialect: Dialect, name = table.name): string[] {
  // PostgreSQL text compares bytewise (COLLATE "C"), as SQLite's does: ids order the same way.
  const typeOf = (type: ColumnType) =>
    type === 'text'
      ? dialect === 'sqlite'
        ? 'TEXT'
        : 'TEXT COLLATE "C"'
      : dialect === 'sqlite'
        ? 'INTEGER'
        : 'BIGINT';
  // SQLite: a constraint that fails FAILs the statement instead of ABORTing it, which is what
  // spares a multi-row INSERT its statement journal (SQLite keeps one for every statement that
  // writes several rows and could ABORT, to undo that statement alone: about 4 KB per crossing
  // order, spilled to temporary files past 64 KiB). Nothing relies on the undo: every write is one
  // transaction, rolled back whole when any statement of it fails. An INSERT OR REPLACE keeps
  // its own rule. Stores made before 2026-11-26 keep ABORT (the same outcome, a little slower).
  const onConflict = dialect === 'sqlite' ? ' ON CONFLICT FAIL' : '';
  const columns = table.columns.map(([column, type]) =>
    column === table.primaryKey && !table.keyPrefix
      ? `${column} ${typeOf(type)} PRIMARY KEY${onConflict}`
      : `${column} ${typeOf(type)} NOT NULL${onConflict}`,
  );
  if (table.keyPrefix) columns.push(`PRIMARY KEY (${keyColumns(table).join(', ')})${onConflict}`);
  return [
    `CREATE TABLE ${name} (${columns.join(', ')})`,
    ...(name === table.name ? table.indexes.map((index) => indexDdl(table, index)) : []),
  ];
}

/**
 * A table of an earlier migration given its key as schema.ts defines it now, rows kept:
 * SQLite builds a new table, copies the rows, drops the old one (and its indexes) and renames
 * the new one, then creates the indexes; PostgreSQL swaps the key's constraint (named
 * `<table>_pkey`, as every bourse table's is) and keeps the table and its other indexes.
 */
function rebuildDdl(table: Table, dialect: Dialect): string[] {
  if (dialect === 'postgres') {
    return [
      `ALTER TABLE ${table.name} DROP CONSTRAINT ${table.name}_pkey, ` +
        `ADD PRIMARY KEY (${keyColumns(table).join(', ')})`,
    ];
  }
  const rebuilt = `${table.name}_rebuilt`;
  const columns = table.columns.map(([column]) => column).join(', ');
  return [
    ...ddl(table, dialect, rebuilt),
    // In key order, which the old table's index of the same columns gives: the new key's
    // b-tree is then filled from left to right.
    `INSERT INTO ${rebuilt} (${columns}) SELECT ${columns} FROM ${table.name} ORDER BY ${keyColumns(table).join(', ')}`,
    `DROP TABLE ${table.name}`,
    `ALTER TABLE ${rebuilt} RENAME TO ${table.name}`,
    ...table.indexes.map((index) => indexDdl(table, index)),
  ];
}

/** An index's name: its table's and its columns' (and a partial index's suffix). */
function indexName(table: Table, index: Index): string {
  const columns = 'where' in index ? index.columns : index;
  const name = `${table.name}_by_${columns.join('_')}`;
  return 'where' in index ? `${name}_${index.suffix}` : name;
}

/** The CREATE INDEX of one index (the same text in both dialects). */
function indexDdl(table: Table, index: Index, ifNotExists = false): string {
  const columns = 'where' in index ? index.columns : index;
  const where = 'where' in index ? ` WHERE ${index.where}` : '';
  const create = ifNotExists ? 'CREATE INDEX IF NOT EXISTS' : 'CREATE INDEX';
  return `${create} ${indexName(table, index)} ON ${table.name} (${columns.join(', ')})${where}`;
}

/** Every statement of a migration, in order: its new tables, its rebuilt ones, then its index changes. */
export function migrationDdl(migration: Migration, dialect: Dialect): string[] {
  const statements = migration.tables.flatMap((table) => ddl(table, dialect));
  for (const name of migration.rebuild ?? []) statements.push(...rebuildDdl(tableOf(name), dialect));
  for (const name of migration.indexes?.drop ?? []) statements.push(`DROP INDEX IF EXISTS ${name}`);
  for (const name of migration.indexes?.create ?? []) {
    const table = tableOf(name);
    for (const index of table.indexes) statements.push(indexDdl(table, index, true));
  }
  return statements;
}

/**
 * The SET list of `INSERT … ON CONFLICT (primaryKey) DO UPDATE SET …` for a table with merge
 * rules: `excluded` is the incoming row, the table name the stored one. Both dialects accept
 * this form; only the max/min function names differ.
 */
export function mergeAssignments(table: Table, dialect: Dialect): string[] {
  const stored = (column: string) => `${table.name}.${column}`;
  const [max, min] = dialect === 'sqlite' ? ['MAX', 'MIN'] : ['GREATEST', 'LEAST'];
  return Object.entries(table.merge ?? {}).map(([column, rule]) => {
    const incoming = `excluded.${column}`;
    if (rule === 'replace') return `${column} = ${incoming}`;
    if (rule === 'sum') return `${column} = ${stored(column)} + ${incoming}`;
    return `${column} = ${rule === 'max' ? max : min}(${stored(column)}, ${incoming})`;
  });
}

/**
 * Two rows of a merge table combined as the store would combine them (`older` stored first):
 * for a store that writes a batch in one statement and must fold rows with the same key first.
 * Integer columns may be given as numbers or decimal strings; the result keeps strings.
 */
export function mergeRows<T extends Record<string, string | number>>(table: Table, older: T, newer: T): T {
  const merged: Record<string, string | number> = { ...older };
  for (const [column, rule] of Object.entries(table.merge ?? {})) {
    const after = newer[column];
    if (after !== undefined) merged[column] = mergeValue(rule, older[column], after);
  }
  return merged as T;
}

/** One column of a merge: the stored value `before` and the incoming `after`, by `rule`. */
export function mergeValue(
  rule: MergeRule,
  before: string | number | undefined,
  after: string | number,
): string | number {
  if (rule === 'replace' || before === undefined) return after;
  const a = BigInt(before);
  const b = BigInt(after);
  const value = rule === 'sum' ? a + b : rule === 'max' ? (a > b ? a : b) : a < b ? a : b;
  return typeof after === 'number' && typeof before === 'number' ? Number(value) : value.toString();
}

/** Every table the migrations create, journal and snapshots included (the operator's reset empties them all). */
export function storedTableNames(): string[] {
  return MIGRATIONS.flatMap((migration) => migration.tables.map((table) => table.name));
}

export function tableOf(name: string): Table {
  for (const migration of MIGRATIONS) {
    const table = migration.tables.find((candidate) => candidate.name === name);
    if (table) return table;
  }
  throw new Error(`no table ${name}`);
}
