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
];
