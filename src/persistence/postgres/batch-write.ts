/**
 * PostgreSQL SQL built from the shared specs: `?` placeholders numbered as `$n`, and one
 * append (journal rows and projection rows of every table) as ONE statement.
 *
 * The statement has a data-modifying CTE per target (table and mode), each inserting its rows
 * from one JSON parameter, an array of rows, each row an array of the values in the table's
 * column order (`INSERT … SELECT e->>0, (e->>1)::bigint, … FROM jsonb_array_elements($1::jsonb)
 * e`): a single round trip, a single implicit transaction (all rows or none), and a statement
 * text that depends only on which targets the batch touches, in which order, so it is
 * prepared once per connection and reused. The parameter is built by JSON.stringify, native
 * and far cheaper on the event loop than the driver's escaping of array literals element by
 * element (the form before: unnest() of one text[]/bigint[] per column); PostgreSQL parses it
 * once per statement. One statement may not touch a row twice, so upserts are folded per
 * primary key first: the last row wins (an order updated twice in one turn), or, for tables
 * with merge rules (candles), the rows are merged as the store would merge them (the rules of
 * schema.ts mergeRows), which is what writing them one by one ends with.
 */
import { crc32 } from 'node:zlib';
import { folded } from '../fold-rows.ts';
import type { JournalMark } from '../journal-record.ts';
import type { RowBatch, Target, Value } from '../projection.ts';
import { mergeAssignments } from '../schema.ts';

/** `?` → `$1, $2, …` (the shared queries contain no `?` inside literals). */
export function numbered(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${(index += 1)}`);
}

export interface BatchStatement {
  name: string;
  text: string;
  values: string[];
}

/** A lone UTF-16 surrogate (JSON.stringify writes it as `\udxxx`, which jsonb refuses). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPED_SURROGATE = /\\u[dD][89abcdefABCDEF]/;

/**
 * The JSON parameter of some rows. A string holding a lone surrogate is written with U+FFFD in
 * its place, as the driver's UTF-8 encoding of a text parameter does: jsonb would refuse the
 * whole statement. (An escaped surrogate in the text may also be an escaped backslash followed
 * by `ud8…` inside a JSON body: the slow path then changes nothing.)
 */
export function rowsJson(rows: readonly Value[][]): string {
  const text = JSON.stringify(rows);
  if (!ESCAPED_SURROGATE.test(text)) return text;
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === 'string' ? value.replace(LONE_SURROGATE, '\ufffd') : value,
  );
}

/**
 * Tables whose `body` column is JSON text (JSON.stringify's, which never leaves a control
 * character raw): their bodies travel as one text parameter, joined by U+001E, and are paired
 * with their rows by position, instead of as escaped strings inside the rows' JSON. That spares
 * the event loop escaping every quote of every body (about 1.5-2 µs per order on the entry
 * body, closed loop); the server's time per order did not move measurably (its lexing of
 * escaped strings, about a tenth of its time, is traded for the split and the join).
 */
const BODY_TABLES = new Set(['journal', 'orders', 'fills']);
const BODY_SEPARATOR = '\u001e';

/** The index of `target`'s body column when its bodies go as a separate text parameter, else -1. */
function bodyIndexOf(target: Target): number {
  return BODY_TABLES.has(target.table.name) ? target.columns.indexOf('body') : -1;
}

/**
 * The part of the statement writing `target`: `INSERT INTO t (…) SELECT e->>0, … FROM
 * jsonb_array_elements($rows::jsonb) e` and its conflict clause; with a body parameter, each
 * row's body is the element of the same position in the split text.
 */
function partOf(target: Target, index: number, rowsParameter: number, bodyParameter: number): string {
  const table = target.table;
  const bodyIndex = bodyIndexOf(target);
  const select = table.columns.map(([, type], column) =>
    column === bodyIndex ? 'b.body' : type === 'integer' ? `(e->>${column})::bigint` : `e->>${column}`,
  );
  const updates = table.merge
    ? mergeAssignments(table, 'postgres')
    : target.columns
        .filter((column) => column !== table.primaryKey)
        .map((column) => `${column} = EXCLUDED.${column}`);
  const conflict =
    target.mode !== 'upsert'
      ? ''
      : updates.length > 0
        ? ` ON CONFLICT (${table.primaryKey}) DO UPDATE SET ${updates.join(', ')}`
        : ` ON CONFLICT (${table.primaryKey}) DO NOTHING`;
  const source =
    bodyIndex < 0
      ? `jsonb_array_elements($${rowsParameter}::jsonb) e`
      : `jsonb_array_elements($${rowsParameter}::jsonb) WITH ORDINALITY AS r(e, n) ` +
        `JOIN unnest(string_to_array($${bodyParameter}, chr(30))) WITH ORDINALITY AS b(body, n) USING (n)`;
  return `w${index} AS (INSERT INTO ${table.name} (${target.columns.join(', ')}) SELECT ${select.join(', ')} FROM ${source}${conflict})`;
}

/** The rows' JSON and, for a body table, the bodies joined (taken out of the rows). */
function parametersOf(target: Target, rows: Value[][], values: string[]): void {
  const bodyIndex = bodyIndexOf(target);
  if (bodyIndex < 0) {
    values.push(rowsJson(rows));
    return;
  }
  const bodies: string[] = new Array<string>(rows.length);
  const stripped: Value[][] = new Array<Value[]>(rows.length);
  for (let at = 0; at < rows.length; at += 1) {
    const row = rows[at] as Value[];
    bodies[at] = String(row[bodyIndex]);
    const copy = row.slice();
    copy[bodyIndex] = 0;
    stripped[at] = copy;
  }
  values.push(rowsJson(stripped), bodies.join(BODY_SEPARATOR));
}

/**
 * One statement writing every row of the batch, or null when there is nothing to write.
 *
 * `after`, when given, is the last journal record of the append sent before this one on the
 * same pipelined connection: the statement then fails (division by zero, at run time, so none
 * of its rows is written) unless that very record, body and all, is in the journal. Statements
 * sent back to back run one after another, each in its own transaction, and one that fails
 * does not stop the next from running; this guard makes every append behind a failed one fail
 * too, so the journal never gets a gap (postgres-store.ts). The body is compared, not only the
 * sequence number, so that a record of the same number committed by someone else (a commit
 * that became visible late, after the engine was rebuilt) does not pass for it.
 */
export function batchStatement(batch: RowBatch, after?: JournalMark, fence?: Fence): BatchStatement | null {
  if (batch.isEmpty) return null;
  const values: string[] = [];
  for (const target of batch.targets) parametersOf(target, folded(target, batch.rowsOf(target)), values);
  if (after) values.push(String(after.seq), after.body);
  if (fence) values.push(fence.name, String(fence.epoch));
  const { name, text } = statementOf(batch.targets, after !== undefined, fence !== undefined);
  return { name, text, values };
}

/**
 * A cluster leader's fencing token (src/cluster/lease.ts): the statement fails, writing
 * nothing, unless the lease row `name` still has this epoch and has not expired. The row is
 * read FOR SHARE, so a newer leader's takeover (an UPDATE of that row) waits for appends
 * already running and every append after it sees the new epoch and fails: no entry of an old
 * leader lands after a newer leader took the lease, hence none after its first entry.
 */
export interface Fence {
  name: string;
  epoch: number;
}

/** Statement texts and names by the targets they write and whether they carry the guard. */
const statements = new Map<string, { name: string; text: string }>();
/** Far more than the table and mode combinations an engine writes; a bound all the same. */
const MAX_STATEMENTS = 4096;

/**
 * The text and name of the statement writing `targets` in this order, remembered: the same
 * few shapes recur on every append, and a text built anew each time would be one more young
 * object for the driver to keep alive until the statement returns. Parameters are numbered
 * in the order `parametersOf` pushes them, then the guard's two.
 */
function statementOf(
  targets: readonly Target[],
  guarded: boolean,
  fenced = false,
): { name: string; text: string } {
  let key = (guarded ? 'g' : '') + (fenced ? 'f' : '');
  for (const target of targets) key += `${target.slot},`;
  let statement = statements.get(key);
  if (!statement) {
    let parameter = 0;
    const parts = targets.map((target, index) => {
      const rowsParameter = (parameter += 1);
      const bodyParameter = bodyIndexOf(target) < 0 ? 0 : (parameter += 1);
      return partOf(target, index, rowsParameter, bodyParameter);
    });
    let result = '1';
    if (guarded) {
      result += ` / (SELECT count(*) FROM journal WHERE seq = $${parameter + 1}::bigint AND body = $${parameter + 2})`;
      parameter += 2;
    }
    if (fenced) {
      result +=
        ` / (SELECT count(*) FROM (SELECT 1 FROM cluster_lease WHERE name = $${parameter + 1} ` +
        `AND epoch = $${parameter + 2}::bigint AND expires_at > clock_timestamp() FOR SHARE) lease)`;
    }
    const text = `WITH ${parts.join(', ')} SELECT ${result}`;
    statement = { name: `bourse_batch_${crc32(text).toString(16)}_${text.length}`, text };
    if (statements.size >= MAX_STATEMENTS) statements.clear();
    statements.set(key, statement);
  }
  return statement;
}
