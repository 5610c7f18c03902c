/** The tables a backup holds: every table of schema.ts, by the migrations a store has applied. */
import { MIGRATIONS, type Table } from '../schema.ts';

export const BOURSE_TABLES: readonly Table[] = MIGRATIONS.flatMap((migration) => migration.tables);

/** The tables of the migrations `versions`, in migration order. */
export function appliedTables(versions: readonly number[]): Table[] {
  const applied = new Set(versions);
  return MIGRATIONS.filter((migration) => applied.has(migration.version)).flatMap(
    (migration) => migration.tables,
  );
}
