/**
 * JSON with bigints and Maps, for journal entries and snapshots. Tags are chosen so that a
 * plain object can never be mistaken for one: `{"$bigint":"12"}` and `{"$map":[[k,v],…]}`.
 */
/** Whether a value holds a bigint or a Map anywhere (then it needs the tagging replacer). */
function needsTags(value: unknown): boolean {
  if (typeof value === 'bigint' || value instanceof Map) return true;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(needsTags);
  for (const key in value) if (needsTags((value as Record<string, unknown>)[key])) return true;
  return false;
}

export function encode(value: unknown): string {
  // A replacer makes JSON.stringify call back for every key; most journal bodies (orders,
  // cancels) hold no bigint or Map, and plain JSON.stringify gives the same text for them.
  if (!needsTags(value)) return JSON.stringify(value);
  return JSON.stringify(value, function replacer(this: unknown, key: string, item: unknown) {
    const raw = (this as Record<string, unknown>)[key];
    if (typeof raw === 'bigint') return { $bigint: raw.toString() };
    if (raw instanceof Map) return { $map: [...raw.entries()] };
    return item;
  });
}

export function decode<T>(text: string): T {
  // Most journal bodies (orders, cancels) carry no tagged value: plain JSON.parse is several
  // times faster than one with a reviver, and gives the same result when no tag is present.
  // Both tags start with `"$`: one scan tells whether a tag can be present.
  if (!text.includes('"$')) return JSON.parse(text) as T;
  return JSON.parse(text, (_key, item: unknown) => {
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const record = item as Record<string, unknown>;
      if (typeof record.$bigint === 'string' && Object.keys(record).length === 1)
        return BigInt(record.$bigint);
      if (Array.isArray(record.$map) && Object.keys(record).length === 1) {
        return new Map(record.$map as [unknown, unknown][]);
      }
    }
    return item;
  }) as T;
}
