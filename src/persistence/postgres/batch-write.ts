/**
 * PostgreSQL SQL built from the shared specs: `?` placeholders numbered as `$n`, and one
 * append (journal rows and projection rows of every table) as ONE statement.
 *
 * The statement has a data-modifying CTE per target (table and mode), each inserting its rows
 * from one text parameter: the values of each row in the table's column order, joined by
 * U+001F, the rows joined by U+001E (`INSERT … SELECT r[1], r[2]::bigint, … FROM (SELECT
 * string_to_array(unnest(string_to_array($1, chr(30))), chr(31)) r OFFSET 0) s`): a single
 * round trip, a single implicit transaction (all rows or none), and a statement text that
 * depends only on which targets the batch touches, in which order, so it is prepared once per
 * connection and reused. Splitting text costs PostgreSQL about a tenth less per order than the
 * form before (one jsonb array of rows per table, `jsonb_array_elements`, whose parse built
 * every string character by character and every number as a numeric), and joining costs the
 * event loop less than JSON.stringify (docs/performance.md, 2026-11-26). A target with a value
 * the text cannot carry (a string holding a separator) goes as that JSON instead, in a
 * statement of its own shape. One statement may not touch a row twice, so upserts are folded
 * per primary key first: the last row wins (an order updated twice in one turn), or, for
 * tables with merge rules (candles), the rows are merged as the store would merge them (the
 * rules of schema.ts mergeRows), which is what writing them one by one ends with.
 */
import { crc32 } from 'node:zlib';
import { folded } from '../fold-rows.ts';
import type { JournalMark } from '../journal-record.ts';
import type { RowBatch, Target, Value } from '../projection.ts';
import { keyColumns, mergeAssignments } from '../schema.ts';

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
 * The JSON parameter of some rows (a target `rowsText` cannot carry). A string holding a lone surrogate is written with U+FFFD in
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

/** Between the fields of a row, and between rows, in a target's text parameter (`rowsText`). */
const FIELD = '\u001f';
const ROW = '\u001e';

/**
 * A target's rows as one text: fields joined by U+001F, rows by U+001E, which the statement
 * splits back (`string_to_array`); or null when a value would blur that: a string holding
 * either separator (a client order id may), or a missing value, which must fail the statement
 * as a NULL in a NOT NULL column does rather than be stored as empty text. Numbers are written
 * as JavaScript prints them, which for the safe integers of integer columns is their decimal.
 * The driver sends the text as UTF-8, writing U+FFFD for a lone surrogate as `rowsJson` does.
 */
export function rowsText(rows: readonly Value[][], columns: number): string | null {
  const lines = new Array<string>(rows.length);
  for (let at = 0; at < rows.length; at += 1) {
    const row = rows[at] as readonly (Value | undefined | null)[];
    if (row.length !== columns || row.includes(undefined) || row.includes(null)) return null;
    const line = row.join(FIELD);
    // Exactly columns - 1 field separators and no row separator: no value holds either.
    let field = -1;
    for (let count = 1; count < columns; count += 1) field = line.indexOf(FIELD, field + 1);
    if (line.indexOf(FIELD, field + 1) >= 0 || line.indexOf(ROW) >= 0) return null;
    lines[at] = line;
  }
  return lines.join(ROW);
}

/**
 * The part of the statement writing `target` from parameter `parameter`: its rows split from
 * one text (`rowsText`), or, when `json`, taken from a JSON array of rows (`rowsJson`); and
 * its conflict clause. `OFFSET 0` keeps each row split once, not once per column.
 */
function partOf(target: Target, index: number, parameter: number, json: boolean): string {
  const table = target.table;
  const select = table.columns.map(([, type], column) =>
    json
      ? type === 'integer'
        ? `(e->>${column})::bigint`
        : `e->>${column}`
      : type === 'integer'
        ? `r[${column + 1}]::bigint`
        : `r[${column + 1}]`,
  );
  const key = keyColumns(table);
  const updates = table.merge
    ? mergeAssignments(table, 'postgres')
    : target.columns
        .filter((column) => !key.includes(column))
        .map((column) => `${column} = EXCLUDED.${column}`);
  const conflict =
    target.mode !== 'upsert'
      ? ''
      : updates.length > 0
        ? ` ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${updates.join(', ')}`
        : ` ON CONFLICT (${key.join(', ')}) DO NOTHING`;
  const source = json
    ? `jsonb_array_elements($${parameter}::jsonb) e`
    : `(SELECT string_to_array(unnest(string_to_array($${parameter}, chr(30))), chr(31)) r OFFSET 0) s`;
  return `w${index} AS (INSERT INTO ${table.name} (${target.columns.join(', ')}) SELECT ${select.join(', ')} FROM ${source}${conflict})`;
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
  /** Per target, in order: `t` for rows sent as text, `j` for rows sent as JSON (a value `rowsText` cannot carry). */
  let json = '';
  for (const target of batch.targets) {
    const rows = folded(target, batch.rowsOf(target));
    const text = rowsText(rows, target.columns.length);
    values.push(text ?? rowsJson(rows));
    json += text === null ? 'j' : 't';
  }
  if (after) values.push(String(after.seq), after.body);
  if (fence) values.push(fence.name, String(fence.epoch));
  const { name, text } = statementOf(batch.targets, json, after !== undefined, fence !== undefined);
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

/** Statement texts and names by the targets they write, in which form, and whether they carry the guard. */
const statements = new Map<string, { name: string; text: string }>();
/** Far more than the table and mode combinations an engine writes; a bound all the same. */
const MAX_STATEMENTS = 4096;

/**
 * The text and name of the statement writing `targets` in this order, remembered: the same
 * few shapes recur on every append, and a text built anew each time would be one more young
 * object for the driver to keep alive until the statement returns. `json` says, target by
 * target, whether its rows go as JSON (`j`) or as text (`t`). Parameters are numbered one per
 * target, in order, then the guard's two and the fence's two.
 */
function statementOf(
  targets: readonly Target[],
  json: string,
  guarded: boolean,
  fenced = false,
): { name: string; text: string } {
  let key = (guarded ? 'g' : '') + (fenced ? 'f' : '') + json;
  for (const target of targets) key += `,${target.slot}`;
  let statement = statements.get(key);
  if (!statement) {
    const parts = targets.map((target, index) => partOf(target, index, index + 1, json[index] === 'j'));
    let parameter = targets.length;
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
