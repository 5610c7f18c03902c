/**
 * JSON with bigints and Maps, for journal entries and snapshots. Tags are chosen so that a
 * plain object can never be mistaken for one: `{"$bigint":"12"}` and `{"$map":[[k,v],…]}`.
 */
export function encode(value: unknown): string {
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
  if (!text.includes('"$bigint"') && !text.includes('"$map"')) return JSON.parse(text) as T;
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
