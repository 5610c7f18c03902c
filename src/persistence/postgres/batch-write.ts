/**
 * PostgreSQL SQL built from the shared specs: `?` placeholders numbered as `$n`, and one
 * append (journal rows and projection rows of every table) as ONE statement.
 *
 * The statement has a data-modifying CTE per table, each inserting the table's rows from
 * column arrays (`unnest($1::bigint[], $2::text[], …)`): a single round trip, a single
 * implicit transaction (all rows or none), and a statement text that depends only on which
 * tables the batch touches, so it is prepared once per connection and reused. One statement
 * may not touch a row twice, so upserts are folded per primary key first: the last row wins
 * (an order updated twice in one turn), or, for tables with merge rules (candles), the rows
 * are merged as the store would merge them (schema.ts mergeRows), which is what writing them
 * one by one ends with.
 */
import { crc32 } from 'node:zlib';
import type { RowWrite, Value } from '../projection.ts';
import { mergeAssignments, mergeRows, tableOf, type ColumnType } from '../schema.ts';

/** `?` → `$1, $2, …` (the shared queries contain no `?` inside literals). */
export function numbered(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${(index += 1)}`);
}

const ARRAY_TYPE: Record<ColumnType, string> = { text: 'text[]', integer: 'bigint[]' };

function arrayTypeOf(type: ColumnType): string {
  const arrayType = ARRAY_TYPE[type] as string | undefined;
  if (!arrayType) throw new Error(`no PostgreSQL array type for column type ${String(type)}`);
  return arrayType;
}

interface Group {
  table: string;
  mode: RowWrite['mode'];
  rows: Record<string, Value>[];
  /** Upserts: primary key → index in rows, so a later row replaces an earlier one. */
  byKey?: Map<Value, number>;
}

export interface BatchStatement {
  name: string;
  text: string;
  values: unknown[];
}

function groupsOf(writes: readonly RowWrite[]): Group[] {
  const groups = new Map<string, Group>();
  for (const write of writes) {
    const key = `${write.mode} ${write.table}`;
    let group = groups.get(key);
    if (!group) {
      group = { table: write.table, mode: write.mode, rows: [] };
      if (write.mode === 'upsert') group.byKey = new Map();
      groups.set(key, group);
    }
    if (group.byKey) {
      const table = tableOf(write.table);
      const primaryKey = write.row[table.primaryKey] as Value;
      const at = group.byKey.get(primaryKey);
      if (at !== undefined) {
        const older = group.rows[at] as Record<string, Value>;
        group.rows[at] = table.merge ? mergeRows(table, older, write.row) : write.row;
        continue;
      }
      group.byKey.set(primaryKey, group.rows.length);
    }
    group.rows.push(write.row);
  }
  return [...groups.values()];
}

/** One statement writing every row, or null when there is nothing to write. */
export function batchStatement(writes: readonly RowWrite[]): BatchStatement | null {
  const groups = groupsOf(writes);
  if (groups.length === 0) return null;
  const values: unknown[] = [];
  const parts = groups.map((group, groupIndex) => {
    const table = tableOf(group.table);
    const columns = table.columns.map(([name]) => name);
    const arrays = table.columns.map(([name, type]) => {
      values.push(group.rows.map((row) => row[name] ?? null));
      return `$${values.length}::${arrayTypeOf(type)}`;
    });
    const updates = table.merge
      ? mergeAssignments(table, 'postgres')
      : columns
          .filter((column) => column !== table.primaryKey)
          .map((column) => `${column} = EXCLUDED.${column}`);
    const conflict =
      group.mode !== 'upsert'
        ? ''
        : updates.length > 0
          ? ` ON CONFLICT (${table.primaryKey}) DO UPDATE SET ${updates.join(', ')}`
          : ` ON CONFLICT (${table.primaryKey}) DO NOTHING`;
    return (
      `w${groupIndex} AS (INSERT INTO ${table.name} (${columns.join(', ')}) ` +
      `SELECT * FROM unnest(${arrays.join(', ')})${conflict})`
    );
  });
  const text = `WITH ${parts.join(', ')} SELECT 1`;
  return { name: `bourse_batch_${crc32(text).toString(16)}_${text.length}`, text, values };
}
