/**
 * Backup and restore of the PostgreSQL store, in bourse's own table files (table-files.ts),
 * needing no PostgreSQL client tools.
 *
 * Export: every bourse table is read in one REPEATABLE READ, READ ONLY transaction, so all
 * tables come from one snapshot of the database while the server goes on committing (each
 * append is one transaction: the export holds a prefix of them, journal and projections
 * alike). Rows are read a page at a time by primary key (keyset paging), never a whole table.
 *
 * Import: the target database must exist (as for the server); its tables are created by the
 * store's own migrations, then every row goes in, in one transaction: all or nothing. With
 * `replace`, the bourse tables are emptied first, in that same transaction.
 */
import pg from 'pg';
import { keyColumns, type Table } from '../schema.ts';
import { openPostgresStore, pgTypes } from '../postgres/postgres-store.ts';
import { CHUNK_ROWS, tableFile, writeTableFile, type RowValues, type TableRows } from './table-files.ts';
import { appliedTables, BOURSE_TABLES } from './tables.ts';

async function connected<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'bourse-admin', types: pgTypes });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The rows of `table`, a page at a time by primary key, on `client` (inside the export's
 * transaction). A key of several columns pages by comparing them as a row, `(a, b) > ($1, $2)`,
 * which its index serves as it serves one column.
 */
function postgresTableRows(client: pg.Client, table: Table): TableRows {
  const columns = table.columns.map(([name]) => name);
  const key = keyColumns(table);
  const select = `SELECT ${columns.join(', ')} FROM ${table.name}`;
  const order = ` ORDER BY ${key.join(', ')} LIMIT ${CHUNK_ROWS}`;
  const after = ` WHERE (${key.join(', ')}) > (${key.map((_, at) => `$${at + 1}`).join(', ')})`;
  const keyAt = key.map((column) => columns.indexOf(column));
  async function* chunks(): AsyncIterable<RowValues[]> {
    let last: RowValues | undefined = undefined;
    for (;;) {
      const result: pg.QueryResult<RowValues> = await client.query({
        text: last === undefined ? select + order : select + after + order,
        values: last === undefined ? [] : keyAt.map((at) => (last as RowValues)[at]),
        rowMode: 'array',
      });
      if (result.rows.length > 0) yield result.rows;
      if (result.rows.length < CHUNK_ROWS) return;
      last = result.rows[result.rows.length - 1];
    }
  }
  return { table: table.name, columns, chunks: chunks() };
}

/** Writes every bourse table of the database at `url` into `dir`'s table files; rows per table. */
export async function exportPostgres(
  url: string,
  dir: string,
): Promise<{ schemaVersions: number[]; rows: Record<string, number> }> {
  return connected(url, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const applied = await client.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      const schemaVersions = applied.rows.map((row) => Number(row.version));
      const rows: Record<string, number> = {};
      for (const table of appliedTables(schemaVersions)) {
        rows[table.name] = await writeTableFile(tableFile(dir, table.name), postgresTableRows(client, table));
      }
      await client.query('COMMIT');
      return { schemaVersions, rows };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

/** How many sessions of a bourse server are connected to the database at `url`. */
export async function postgresServerSessions(url: string): Promise<number> {
  return connected(url, async (client) => {
    const result = await client.query<{ sessions: number }>(
      "SELECT COUNT(*) AS sessions FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'bourse'",
    );
    return Number(result.rows[0]?.sessions ?? 0);
  });
}

/** Whether any bourse table of the database at `url` holds a row. */
export async function postgresHoldsData(url: string): Promise<boolean> {
  return connected(url, async (client) => {
    for (const table of BOURSE_TABLES) {
      const exists = await client.query<{ found: string | null }>('SELECT to_regclass($1) AS found', [
        table.name,
      ]);
      if (exists.rows[0]?.found === null) continue;
      const rows = await client.query(`SELECT 1 FROM ${table.name} LIMIT 1`);
      // The projector's position row is written on open, data or not.
      if (rows.rows.length > 0 && table.name !== 'projector_position') return true;
    }
    return false;
  });
}

async function insertRows(client: pg.Client, rows: TableRows): Promise<number> {
  const perStatement = Math.max(1, Math.floor(30_000 / rows.columns.length));
  const head = `INSERT INTO ${rows.table} (${rows.columns.join(', ')}) VALUES `;
  let count = 0;
  for await (const chunk of rows.chunks) {
    for (let at = 0; at < chunk.length; at += perStatement) {
      const part = chunk.slice(at, at + perStatement);
      const values: unknown[] = [];
      const tuples = part.map((row) => {
        const marks = row.map((value) => {
          values.push(value);
          return `$${values.length}`;
        });
        return `(${marks.join(', ')})`;
      });
      await client.query(head + tuples.join(', '), values);
      count += part.length;
    }
  }
  return count;
}

/**
 * Creates bourse's tables in the database at `url` (its migrations) and loads `sources` into
 * them in one transaction, emptying them first if `replace`; rows per table.
 */
export async function importPostgres(
  url: string,
  sources: AsyncIterable<TableRows>,
  replace: boolean,
): Promise<Record<string, number>> {
  const store = await openPostgresStore(url);
  await store.close();
  return connected(url, async (client) => {
    await client.query('BEGIN');
    try {
      if (replace) await client.query(`TRUNCATE ${BOURSE_TABLES.map((table) => table.name).join(', ')}`);
      // Opening gave the store a projector position; the backup's own replaces it (a backup
      // without one gets the journal's end on the next open, as any store written before it).
      await client.query('DELETE FROM projector_position');
      const counts: Record<string, number> = {};
      for await (const rows of sources) counts[rows.table] = await insertRows(client, rows);
      await client.query('COMMIT');
      return counts;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}
