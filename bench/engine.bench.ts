// Engine benchmark: our fast book + matcher against nodejs-order-book on one seeded stream.
//
//   npx tsx bench/engine.bench.ts            # 1,000,000 ops, 5 runs per engine, medians
//   npx tsx bench/engine.bench.ts --quick    # 100,000 ops, 3 runs: a sanity check
//
// The stream (bench/engine-stream.ts) is the exchange-core-like mix over ~1,000 resting
// orders. Each run builds a fresh engine, prefills it, then times the stream once for
// throughput and once more with a clock read around every op for latency percentiles. The
// engines alternate who goes first in each run. Not a test: nothing here asserts timings.

import { cpus } from 'node:os';
import {
  measureLatency,
  measureThroughput,
  median,
  timerOverheadNanoseconds,
  type ThroughputSample,
} from './engine-measure.ts';
import { createOurEngine, createPeerEngine, type EngineUnderTest } from './engine-runners.ts';
import { generateStream, opCancel, opLimit, opMarket, opModify, type BenchStream } from './engine-stream.ts';

interface EngineFigures {
  name: string;
  operationsPerSecond: number;
  p50Nanoseconds: number;
  p99Nanoseconds: number;
  p999Nanoseconds: number;
  missedOperations: number;
  restingOrdersAtEnd: number;
}

const isQuick = process.argv.includes('--quick');
const operationCount = isQuick ? 100_000 : 1_000_000;
const runCount = isQuick ? 3 : 5;
const seed = 20_240_601;

interface EngineFactory {
  name: string;
  create: () => EngineUnderTest;
}

const engines: readonly EngineFactory[] = [
  { name: 'bourse (fast book + matcher)', create: createOurEngine },
  { name: 'nodejs-order-book', create: createPeerEngine },
];

function describeMix(stream: BenchStream): string {
  const counts = [0, 0, 0, 0];
  for (const op of stream.ops) counts[op.kind] = (counts[op.kind] ?? 0) + 1;
  const share = (kind: number) => `${(((counts[kind] ?? 0) / stream.ops.length) * 100).toFixed(1)}%`;
  return `limit ${share(opLimit)}, market ${share(opMarket)}, cancel ${share(opCancel)}, modify ${share(opModify)}`;
}

interface Samples {
  operationsPerSecond: number[];
  p50Nanoseconds: number[];
  p99Nanoseconds: number[];
  p999Nanoseconds: number[];
  last: ThroughputSample | undefined;
}

function measureEngines(stream: BenchStream, engines: readonly EngineFactory[]): EngineFigures[] {
  const samples: Samples[] = engines.map(() => ({
    operationsPerSecond: [],
    p50Nanoseconds: [],
    p99Nanoseconds: [],
    p999Nanoseconds: [],
    last: undefined,
  }));
  for (let run = 0; run < runCount; run += 1) {
    const indexes = engines.map((_, index) => index);
    if (run % 2 === 1) indexes.reverse();
    for (const index of indexes) {
      const engine = engines[index] as EngineFactory;
      const sample = samples[index] as Samples;
      const throughput = measureThroughput(engine.create, stream);
      const latency = measureLatency(engine.create, stream);
      sample.operationsPerSecond.push(throughput.operationsPerSecond);
      sample.p50Nanoseconds.push(latency.p50Nanoseconds);
      sample.p99Nanoseconds.push(latency.p99Nanoseconds);
      sample.p999Nanoseconds.push(latency.p999Nanoseconds);
      sample.last = throughput;
      process.stderr.write(
        `run ${run + 1}/${runCount} ${engine.name}: ${formatInteger(throughput.operationsPerSecond)} ops/s\n`,
      );
    }
  }
  return engines.map((engine, index) => {
    const sample = samples[index] as Samples;
    return {
      name: engine.name,
      operationsPerSecond: median(sample.operationsPerSecond),
      p50Nanoseconds: median(sample.p50Nanoseconds),
      p99Nanoseconds: median(sample.p99Nanoseconds),
      p999Nanoseconds: median(sample.p999Nanoseconds),
      missedOperations: sample.last?.missedOperations ?? 0,
      restingOrdersAtEnd: sample.last?.restingOrdersAtEnd ?? 0,
    };
  });
}

function formatInteger(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function main(): void {
  const stream = generateStream(seed, operationCount);
  // Warm-up: let both engines reach optimised code before anything is recorded.
  const warmUp = generateStream(seed + 1, Math.min(operationCount, 200_000));
  for (const engine of engines) measureThroughput(engine.create, warmUp);

  const figures = measureEngines(stream, engines);
  const [ours, peer] = figures as [EngineFigures, EngineFigures];
  const ratio = ours.operationsPerSecond / peer.operationsPerSecond;

  const lines = [
    `Engine benchmark — ${operationCount.toLocaleString('en-US')} ops after a ${stream.prefill.length}-order prefill, ${runCount} runs each, medians`,
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}; stream seed ${seed}; mix: ${describeMix(stream)}`,
    `Latency is per op including one clock read pair (~${formatInteger(timerOverheadNanoseconds())} ns).`,
    '',
    '| engine | ops/s | p50 ns | p99 ns | p99.9 ns | ops naming a missing order | resting at end |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...figures.map(
      (engine) =>
        `| ${engine.name} | ${formatInteger(engine.operationsPerSecond)} | ${formatInteger(engine.p50Nanoseconds)} | ` +
        `${formatInteger(engine.p99Nanoseconds)} | ${formatInteger(engine.p999Nanoseconds)} | ` +
        `${formatInteger(engine.missedOperations)} | ${formatInteger(engine.restingOrdersAtEnd)} |`,
    ),
    '',
    `Throughput ratio (${ours.name} / ${peer.name}): ${ratio.toFixed(1)}×`,
    `Goals: ≥1,000,000 ops/s ${ours.operationsPerSecond >= 1_000_000 ? 'met' : 'NOT met'}; ` +
      `≥6× the peer ${ratio >= 6 ? 'met' : 'NOT met'}.`,
  ];
  console.log(lines.join('\n'));
}

main();
