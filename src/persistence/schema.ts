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
