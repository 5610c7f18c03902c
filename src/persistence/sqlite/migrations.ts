/**
 * Schema migrations, forward only and versioned: each runs once, in order, inside a
 * transaction, and its version is recorded in schema_migrations.
 */
export const SQLITE_MIGRATIONS: readonly { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE journal (
        seq INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL,
        type TEXT NOT NULL,
        body TEXT NOT NULL,
        checksum INTEGER NOT NULL
      );
      CREATE TABLE snapshots (
        seq INTEGER PRIMARY KEY,
        time_ms INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE TABLE bills (
        bill_id TEXT PRIMARY KEY,
        uid TEXT NOT NULL,
        wallet TEXT NOT NULL,
        coin TEXT NOT NULL,
        symbol TEXT NOT NULL,
        amount TEXT NOT NULL,
        fee TEXT NOT NULL,
        balance TEXT NOT NULL,
        business_type TEXT NOT NULL,
        time_ms INTEGER NOT NULL
      );
      CREATE INDEX bills_by_account ON bills (uid, wallet, bill_id);
      CREATE TABLE funding_records (
        record_id TEXT PRIMARY KEY,
        tx_id TEXT NOT NULL,
        uid TEXT NOT NULL,
        coin TEXT NOT NULL,
        amount TEXT NOT NULL,
        direction TEXT NOT NULL,
        sub_type TEXT NOT NULL,
        status TEXT NOT NULL,
        time_ms INTEGER NOT NULL
      );
      CREATE INDEX funding_by_account ON funding_records (uid, record_id);
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE orders (
        order_id TEXT PRIMARY KEY,
        uid TEXT NOT NULL,
        client_oid TEXT NOT NULL,
        category TEXT NOT NULL,
        symbol TEXT NOT NULL,
        status TEXT NOT NULL,
        created_ms INTEGER NOT NULL,
        updated_ms INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX orders_by_account ON orders (uid, category, order_id);
      CREATE INDEX orders_by_client_oid ON orders (uid, client_oid);
      CREATE TABLE fills (
        exec_id TEXT PRIMARY KEY,
        uid TEXT NOT NULL,
        order_id TEXT NOT NULL,
        category TEXT NOT NULL,
        symbol TEXT NOT NULL,
        time_ms INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX fills_by_account ON fills (uid, exec_id);
      CREATE INDEX fills_by_order ON fills (uid, order_id, exec_id);
      CREATE TABLE trades (
        trade_id TEXT PRIMARY KEY,
        category TEXT NOT NULL,
        symbol TEXT NOT NULL,
        price TEXT NOT NULL,
        quantity TEXT NOT NULL,
        side TEXT NOT NULL,
        time_ms INTEGER NOT NULL
      );
      CREATE INDEX trades_by_symbol ON trades (category, symbol, trade_id);
    `,
  },
];
