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
