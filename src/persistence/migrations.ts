/**
 * Which migrations of schema.ts a store still has to apply, given the versions it has
 * applied. Forward only: a store that holds a version this build does not know was migrated
 * by a newer bourse, and this one refuses to start on it rather than guess.
 */
import { MIGRATIONS, type Migration } from './schema.ts';

export function pendingMigrations(applied: Iterable<number>): Migration[] {
  const known = new Set(MIGRATIONS.map((migration) => migration.version));
  const done = new Set(applied);
  const unknown = [...done].filter((version) => !known.has(version)).sort((a, b) => a - b);
  if (unknown.length > 0) {
    throw new Error(
      `the store holds schema version(s) ${unknown.join(', ')}, which this bourse does not know: ` +
        'it was migrated by a newer version; run that version or restore a backup',
    );
  }
  return [...MIGRATIONS]
    .filter((migration) => !done.has(migration.version))
    .sort((a, b) => a.version - b.version);
}
