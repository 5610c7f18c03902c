/**
 * A hash of the whole engine state, independent of Map insertion order, so that a replay
 * of the journal can be compared with the live state. Two 32-bit FNV-1a lanes give 64 bits;
 * it detects divergence, it is not a cryptographic digest.
 */
import type { EngineState } from './state.ts';

function canonical(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Map) {
    const entries = [...value.entries()].map(([key, item]) => [String(key), canonical(item)] as const);
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${item}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const record = value as Record<string, unknown>;
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

function fnv1a(text: string, seed: number): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function stateHash(state: EngineState): string {
  const text = canonical(state);
  const high = fnv1a(text, 0x811c9dc5).toString(16).padStart(8, '0');
  const low = fnv1a(text, 0x050c5d1f).toString(16).padStart(8, '0');
  return high + low;
}
