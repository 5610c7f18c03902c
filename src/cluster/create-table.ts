/**
 * `CREATE TABLE IF NOT EXISTS` for the cluster's own tables, safe when several processes start
 * at once: PostgreSQL's IF NOT EXISTS is not (two sessions both find the table missing, and the
 * second fails on the catalogue's unique index: "duplicate key value violates unique constraint
 * pg_type_typname_nsp_index"). The statement runs under a transaction-scoped advisory lock, so
 * one process creates the table and the others then find it.
 */
import type pg from 'pg';

/** The advisory lock key of the cluster's table creation (any fixed number of bourse's own). */
const CREATE_LOCK_KEY = 0x626f7572; // "bour"

export async function createTableOnce(client: pg.Client | pg.Pool, createSql: string): Promise<void> {
  const session = 'connect' in client && 'totalCount' in client ? await client.connect() : client;
  try {
    await session.query('BEGIN');
    try {
      await session.query('SELECT pg_advisory_xact_lock($1)', [CREATE_LOCK_KEY]);
      await session.query(createSql);
      await session.query('COMMIT');
    } catch (error) {
      await session.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  } finally {
    if (session !== client) (session as pg.PoolClient).release();
  }
}
