/**
 * Upserts of one append folded per primary key before they are written, as writing them one
 * by one would end: the last row wins, or, for tables with merge rules (candles), the rows are
 * combined with the rules the database applies (schema.ts mergeRows). PostgreSQL needs it (one
 * statement may not touch a row twice); SQLite writes fewer rows with it (a crossing batch
 * updates each candle once per trade).
 */
import type { Target, Value } from './projection.ts';
import { mergeValue, type MergeRule } from './schema.ts';

/** The merge rules of a target's table, by column position. */
const mergePlans = new Map<number, [index: number, rule: MergeRule][]>();

function mergePlanOf(target: Target): [number, MergeRule][] {
  let plan = mergePlans.get(target.slot);
  if (!plan) {
    plan = Object.entries(target.table.merge ?? {}).map(
      ([column, rule]) => [target.columns.indexOf(column), rule] as [number, MergeRule],
    );
    mergePlans.set(target.slot, plan);
  }
  return plan;
}

/** Two rows with the same key, combined as the database combines them (schema.ts mergeRows). */
function merged(plan: readonly [number, MergeRule][], older: Value[], newer: Value[]): Value[] {
  const row = older.slice();
  for (const [index, rule] of plan) {
    const after = newer[index];
    if (after !== undefined) row[index] = mergeValue(rule, older[index], after);
  }
  return row;
}

/** Upserts folded per primary key, in first-seen order: the last row wins, or rows merge. */
export function folded(target: Target, rows: Value[][]): Value[][] {
  if (target.mode !== 'upsert' || rows.length < 2) return rows;
  const plan = target.table.merge ? mergePlanOf(target) : null;
  const byKey = new Map<Value, number>();
  const out: Value[][] = [];
  for (const row of rows) {
    const key = row[target.keyIndex] as Value;
    const at = byKey.get(key);
    if (at === undefined) {
      byKey.set(key, out.length);
      out.push(row);
    } else out[at] = plan ? merged(plan, out[at] as Value[], row) : row;
  }
  return out;
}
