/**
 * The stored schema, once for every store: tables, columns and indexes, in forward-only
 * versioned migrations. Each store turns a Table into its own DDL (`ddl`), so SQLite and
 * PostgreSQL always hold the same tables and the same indexes.
 */
export type ColumnType = 'text' | 'integer';

export interface Table {
  name: string;
  columns: readonly (readonly [name: string, type: ColumnType])[];
  primaryKey: string;
  /** Each index lists its columns; its name is derived from the table and columns. */
  indexes: readonly (readonly string[])[];
}

export interface Migration {
  version: number;
  tables: readonly Table[];
}

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
          ['time_ms', 'integer'],
        ],
        primaryKey: 'bill_id',
        indexes: [['uid', 'wallet', 'bill_id']],
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
        indexes: [
          ['uid', 'category', 'order_id'],
          ['uid', 'client_oid'],
        ],
      },
      {
        name: 'fills',
        columns: [
          ['exec_id', 'text'],
          ['uid', 'text'],
          ['order_id', 'text'],
          ['category', 'text'],
          ['symbol', 'text'],
          ['time_ms', 'integer'],
          ['body', 'text'],
        ],
        primaryKey: 'exec_id',
        indexes: [
          ['uid', 'exec_id'],
          ['uid', 'order_id', 'exec_id'],
        ],
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
];

export type Dialect = 'sqlite' | 'postgres';

export function ddl(table: Table, dialect: Dialect): string[] {
  // PostgreSQL text compares bytewise (COLLATE "C"), as SQLite's does: ids order the same way.
  const typeOf = (type: ColumnType) =>
    type === 'text'
      ? dialect === 'sqlite'
        ? 'TEXT'
        : 'TEXT COLLATE "C"'
      : dialect === 'sqlite'
        ? 'INTEGER'
        : 'BIGINT';
  const columns = table.columns.map(([name, type]) =>
    name === table.primaryKey ? `${name} ${typeOf(type)} PRIMARY KEY` : `${name} ${typeOf(type)} NOT NULL`,
  );
  return [
    `CREATE TABLE ${table.name} (${columns.join(', ')})`,
    ...table.indexes.map(
      (index) => `CREATE INDEX ${table.name}_by_${index.join('_')} ON ${table.name} (${index.join(', ')})`,
    ),
  ];
}

export function tableOf(name: string): Table {
  for (const migration of MIGRATIONS) {
    const table = migration.tables.find((candidate) => candidate.name === name);
    if (table) return table;
  }
  throw new Error(`no table ${name}`);
}
