/**
 * Lookup tables keyed by names that may come from a request (account types, permission
 * names, channel topics). A plain object literal inherits Object.prototype, so a lookup by
 * "__proto__", "constructor" or "toString" finds a prototype member instead of nothing; a
 * table made here has no prototype and is frozen, so only its own names are found and
 * nothing can be added to it.
 */
export function nameTable<T extends object>(entries: T): Readonly<T> {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}

/** The value `table` holds under `name`, or undefined: own names only, whatever the table's prototype. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, name: string): V | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
