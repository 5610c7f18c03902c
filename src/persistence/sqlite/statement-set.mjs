// Prepared write statements by index, shared by the SQLite writer thread and the inline
// writer. A statement given as a template `{ head, row, tail }` is an INSERT whose rows can go
// several per statement (`head` + `row`, `row`, … + `tail`): one call into SQLite for up to
// 32 rows instead of one each, which saved 10-15% of the writer's CPU per row in a micro
// benchmark (order rows, three indexes; docs/performance.md). Counts are powers of two, so a
// table has at most six forms prepared. The rows' values go as the call's arguments, not as
// one array per row (about 4-6% less of the writer's CPU per crossing order, 2026-11-26c,
// bench/sqlite-bind.bench.ts). Plain JavaScript: the writer thread runs without the
// TypeScript loader.

/** Rows per statement, largest first. */
const COUNTS = [32, 16, 8, 4, 2, 1];

/** The text of a statement spec writing one row. */
export function oneRowText(spec) {
  return typeof spec === 'string' ? spec : spec.head + spec.row + spec.tail;
}

/**
 * The values of `count` rows from `at`, one after another: passed as arguments, each is bound
 * straight from the call's arguments, where a row given as an array is read element by
 * element through a property lookup (better-sqlite3's BindArray).
 */
function flattened(rows, at, count) {
  let size = 0;
  for (let row = at; row < at + count; row += 1) size += rows[row].length;
  const values = new Array(size);
  let next = 0;
  for (let row = at; row < at + count; row += 1) {
    const fields = rows[row];
    for (let field = 0; field < fields.length; field += 1) values[next++] = fields[field];
  }
  return values;
}

export class StatementSet {
  constructor(db) {
    this.db = db;
    this.entries = [];
  }

  /** Prepares `specs` (texts or templates), indexed after those prepared before. */
  add(specs) {
    for (const spec of specs) {
      const template = typeof spec === 'string' ? null : spec;
      this.entries.push({ one: this.db.prepare(oneRowText(spec)), template, forms: [] });
    }
  }

  /** Runs statement `index` for each row, in order, several rows per call when it can. */
  run(index, rows) {
    const entry = this.entries[index];
    if (entry.template === null) {
      for (const values of rows) entry.one.run(values);
      return;
    }
    let at = 0;
    for (const count of COUNTS) {
      while (rows.length - at >= count) {
        if (count === 1) entry.one.run(...rows[at]);
        else this.form(entry, count).run(...flattened(rows, at, count));
        at += count;
      }
    }
  }

  /** The statement inserting `count` rows at once. */
  form(entry, count) {
    let statement = entry.forms[count];
    if (!statement) {
      const { head, row, tail } = entry.template;
      statement = this.db.prepare(head + new Array(count).fill(row).join(', ') + tail);
      entry.forms[count] = statement;
    }
    return statement;
  }
}
