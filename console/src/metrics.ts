/**
 * The Prometheus text format (what GET /metrics answers) read into samples, and the rates the
 * System view shows from two readings of counters.
 */

export interface Sample {
  name: string;
  labels: string;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)/;

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (match) samples.push({ name: match[1] ?? '', labels: match[2] ?? '', value: Number(match[3]) });
  }
  return samples;
}

/** The sum of every series of a metric (all label sets); undefined when absent. */
export function total(samples: Sample[], name: string): number | undefined {
  let sum: number | undefined;
  for (const sample of samples) if (sample.name === name) sum = (sum ?? 0) + sample.value;
  return sum;
}

export interface Reading {
  atMs: number;
  samples: Sample[];
}

/** Per-second increase of a counter between two readings (a restart's reset reads as 0). */
export function ratePerSecond(before: Reading | undefined, after: Reading, name: string): number | undefined {
  const now = total(after.samples, name);
  const then = before ? total(before.samples, name) : undefined;
  if (now === undefined || then === undefined || after.atMs <= (before?.atMs ?? 0)) return undefined;
  return Math.max(0, now - then) / ((after.atMs - (before?.atMs ?? 0)) / 1000);
}

/** How long a window the growth of a gauge is measured over (readings every 2 s). */
export const GROWTH_WINDOW_MS = 60_000;

/**
 * Change per minute of a gauge (the store's size) from the oldest reading in `history` to the
 * newest: over up to a minute, so one write's page does not read as a burst. Negative when
 * it shrank (old journal records pruned after a snapshot).
 */
export function perMinute(history: readonly Reading[], name: string): number | undefined {
  const first = history[0];
  const last = history[history.length - 1];
  if (!first || !last || last.atMs <= first.atMs) return undefined;
  const then = total(first.samples, name);
  const now = total(last.samples, name);
  if (then === undefined || now === undefined) return undefined;
  return ((now - then) * 60_000) / (last.atMs - first.atMs);
}

/** `history` with `reading` added and readings older than the window dropped (two kept). */
export function within(history: readonly Reading[], reading: Reading): Reading[] {
  const kept = [...history, reading];
  while (kept.length > 2 && reading.atMs - (kept[0]?.atMs ?? 0) > GROWTH_WINDOW_MS) kept.shift();
  return kept;
}

/** Bytes in B, KiB, MiB or GiB, one decimal (display only). */
export function byteText(bytes: number | undefined): string {
  if (bytes === undefined || !Number.isFinite(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = Math.abs(bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${bytes < 0 ? '−' : ''}${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
