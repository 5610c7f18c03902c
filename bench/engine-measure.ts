// Timing loops and statistics for the engine benchmark.
//
// Throughput and latency are measured in separate passes over the same stream: reading the
// clock around every op costs tens of nanoseconds, which would distort ops/s, while a single
// clock read around the whole stream cannot give percentiles.

import type { BenchStream } from './engine-stream.ts';
import type { EngineUnderTest } from './engine-runners.ts';

export interface ThroughputSample {
  operationsPerSecond: number;
  missedOperations: number;
  restingOrdersAtEnd: number;
}

export interface LatencySample {
  p50Nanoseconds: number;
  p99Nanoseconds: number;
  p999Nanoseconds: number;
}

function prefilled(createEngine: () => EngineUnderTest, stream: BenchStream): EngineUnderTest {
  const engine = createEngine();
  for (const op of stream.prefill) engine.apply(op);
  return engine;
}

export function measureThroughput(
  createEngine: () => EngineUnderTest,
  stream: BenchStream,
): ThroughputSample {
  const engine = prefilled(createEngine, stream);
  const ops = stream.ops;
  let missedOperations = 0;
  const startNanoseconds = process.hrtime.bigint();
  for (let index = 0; index < ops.length; index += 1) {
    if (!engine.apply(ops[index] as BenchStream['ops'][number])) missedOperations += 1;
  }
  const elapsedNanoseconds = Number(process.hrtime.bigint() - startNanoseconds);
  return {
    operationsPerSecond: (ops.length / elapsedNanoseconds) * 1e9,
    missedOperations,
    restingOrdersAtEnd: engine.restingOrderCount(),
  };
}

export function measureLatency(createEngine: () => EngineUnderTest, stream: BenchStream): LatencySample {
  const engine = prefilled(createEngine, stream);
  const ops = stream.ops;
  const latencies = new Float64Array(ops.length);
  for (let index = 0; index < ops.length; index += 1) {
    const op = ops[index] as BenchStream['ops'][number];
    const startNanoseconds = process.hrtime.bigint();
    engine.apply(op);
    latencies[index] = Number(process.hrtime.bigint() - startNanoseconds);
  }
  latencies.sort();
  return {
    p50Nanoseconds: percentile(latencies, 0.5),
    p99Nanoseconds: percentile(latencies, 0.99),
    p999Nanoseconds: percentile(latencies, 0.999),
  };
}

/** Median cost of two back-to-back clock reads: the floor under every latency figure. */
export function timerOverheadNanoseconds(): number {
  const samples = new Float64Array(100_000);
  for (let index = 0; index < samples.length; index += 1) {
    const startNanoseconds = process.hrtime.bigint();
    samples[index] = Number(process.hrtime.bigint() - startNanoseconds);
  }
  samples.sort();
  return percentile(samples, 0.5);
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: Float64Array, fraction: number): number {
  const rank = Math.max(1, Math.ceil(fraction * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? Number.NaN;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}
