// Full-engine benchmark (`npm run bench:engine-full`; not a test): the whole Exchange —
// validation, holds, matching, settlement, fees, events; no HTTP, no store — against
// nodejs-order-book doing only its matching on the same orders, in the same run.
//
//   BENCH_RUNS=5 npm run bench:engine-full          # medians of 5 runs per engine and stream
//   BENCH_ORDERS=200000 npm run bench:engine-full   # orders per stream (default 1,000,000)
//   BENCH_STREAMS=crossing-1,crossing-20            # a subset (also exchange-core)
//   BENCH_CATALOGUE=full                            # the whole default catalogue listed, not spot alone
//
// A command is one `Exchange.execute` call, events built and returned (then dropped):
// - exchange-core: the engine bench's mix (bench/engine-stream.ts), one order, cancel or
//   modify per command (bench/engine-full-streams.ts says how each maps to a command);
// - crossing-1: one GTC limit per command, every order fills whole (sell rests, buy takes);
// - crossing-20: place-batch of 20 (10 such pairs) per command.
// The peer gets the same orders one call each; in crossing-20 its "command" is 20 calls, so
// the latency columns compare like with like. Throughput is orders/s for both. Each run
// builds fresh engines, runs the setup untimed, then times the stream once for throughput and
// once more with a clock read around every command for the percentiles; the engines
// alternate who goes first.

import { cpus } from 'node:os';
import type { Command } from '../src/domain/commands.ts';
import { Exchange } from '../src/engine/exchange.ts';
import { median, percentile } from './engine-measure.ts';
import { createPeerEngine } from './engine-runners.ts';
import { crossingStream, exchangeCoreStream, type FullStream } from './engine-full-streams.ts';
import type { BenchOp } from './engine-stream.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const STREAMS = (process.env.BENCH_STREAMS ?? 'exchange-core,crossing-1,crossing-20').split(',');
const SEED = 20_240_601;

/** One engine on one stream: `command(i)` runs the stream's i-th command. */
interface Prepared {
  commandCount: number;
  command(index: number): void;
}

interface Contender {
  name: string;
  prepare(stream: FullStream, ordersPerCommand: number): Prepared;
}

const bourse: Contender = {
  name: 'bourse Exchange (full engine)',
  prepare(stream) {
    const exchange = new Exchange();
    for (const command of stream.setup) exchange.execute(command);
    const commands: Command[] = stream.commands;
    return {
      commandCount: commands.length,
      command(index) {
        exchange.execute(commands[index] as Command);
      },
    };
  },
};

const peer: Contender = {
  name: 'nodejs-order-book (matching only)',
  prepare(stream, ordersPerCommand) {
    const engine = createPeerEngine();
    for (const op of stream.peerPrefill) engine.apply(op);
    const ops: BenchOp[] = stream.peerOps;
    return {
      commandCount: Math.ceil(ops.length / ordersPerCommand),
      command(index) {
        const end = Math.min(ops.length, (index + 1) * ordersPerCommand);
        for (let at = index * ordersPerCommand; at < end; at += 1) engine.apply(ops[at] as BenchOp);
      },
    };
  },
};

interface Sample {
  ordersPerSecond: number;
  /** CPU time (user + system, process.cpuUsage) per order in the throughput pass, µs: holds under load. */
  cpuMicrosPerOrder: number;
  p50: number;
  p99: number;
  p999: number;
}

function measure(contender: Contender, stream: FullStream, ordersPerCommand: number): Sample {
  const timed = contender.prepare(stream, ordersPerCommand);
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  for (let index = 0; index < timed.commandCount; index += 1) timed.command(index);
  const cpu = process.cpuUsage(cpuBefore);
  const elapsedNs = Number(process.hrtime.bigint() - started);

  const probed = contender.prepare(stream, ordersPerCommand);
  const latencies = new Float64Array(probed.commandCount);
  for (let index = 0; index < probed.commandCount; index += 1) {
    const before = process.hrtime.bigint();
    probed.command(index);
    latencies[index] = Number(process.hrtime.bigint() - before);
  }
  latencies.sort();
  return {
    ordersPerSecond: (stream.orderCount / elapsedNs) * 1e9,
    cpuMicrosPerOrder: (cpu.user + cpu.system) / stream.orderCount,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    p999: percentile(latencies, 0.999),
  };
}

function buildStream(name: string, orders: number): { stream: FullStream; ordersPerCommand: number } {
  if (name === 'exchange-core') return { stream: exchangeCoreStream(SEED, orders), ordersPerCommand: 1 };
  const perCommand = Number(name.replace('crossing-', ''));
  if (!Number.isInteger(perCommand) || perCommand < 1 || (perCommand % 2 === 1 && perCommand !== 1)) {
    throw new Error(`unknown stream ${name}`);
  }
  return { stream: crossingStream(orders, perCommand), ordersPerCommand: perCommand };
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const micros = (ns: number) => (ns / 1000).toFixed(2);

function main(): void {
  const lines = [
    `Full-engine benchmark — ${integer(ORDERS)} orders per stream, ${RUNS} runs, medians`,
    `Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'}; latency per command, one clock-read pair included`,
    '',
    '| stream | engine | orders/s | CPU µs per order | p50 µs | p99 µs | p99.9 µs | refused |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ];
  const ratios: string[] = [];
  for (const name of STREAMS) {
    const { stream, ordersPerCommand } = buildStream(name, ORDERS);
    // Warm-up on a shorter copy so both engines run optimised code before anything counts.
    const warm = buildStream(name, Math.min(ORDERS, 100_000));
    for (const contender of [bourse, peer]) measure(contender, warm.stream, warm.ordersPerCommand);
    const samples: Sample[][] = [[], []];
    for (let run = 0; run < RUNS; run += 1) {
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const sample = measure(which === 0 ? bourse : peer, stream, ordersPerCommand);
        samples[which]?.push(sample);
        process.stderr.write(
          `${name} run ${run + 1}/${RUNS} ${which === 0 ? 'bourse' : 'peer'}: ` +
            `${integer(sample.ordersPerSecond)} orders/s, ${sample.cpuMicrosPerOrder.toFixed(2)} µs CPU per order\n`,
        );
      }
    }
    const medians = samples.map((list) => ({
      ordersPerSecond: median(list.map((sample) => sample.ordersPerSecond)),
      cpuMicrosPerOrder: median(list.map((sample) => sample.cpuMicrosPerOrder)),
      p50: median(list.map((sample) => sample.p50)),
      p99: median(list.map((sample) => sample.p99)),
      p999: median(list.map((sample) => sample.p999)),
    }));
    const refused = [...stream.refusals].map(([code, count]) => `${code} ${count}`).join(', ') || '0';
    [bourse, peer].forEach((contender, which) => {
      const figures = medians[which] as Sample;
      lines.push(
        `| ${name} | ${contender.name} | ${integer(figures.ordersPerSecond)} | ` +
          `${figures.cpuMicrosPerOrder.toFixed(2)} | ${micros(figures.p50)} | ` +
          `${micros(figures.p99)} | ${micros(figures.p999)} | ${which === 0 ? refused : '–'} |`,
      );
    });
    const perRun = samples[0]?.map(
      (sample, run) => sample.ordersPerSecond / (samples[1]?.[run]?.ordersPerSecond ?? 1),
    );
    const cpuPerRun = samples[0]?.map(
      (sample, run) => (samples[1]?.[run]?.cpuMicrosPerOrder ?? 0) / sample.cpuMicrosPerOrder,
    );
    ratios.push(
      `${name}: bourse / peer ${((medians[0]?.ordersPerSecond ?? 0) / (medians[1]?.ordersPerSecond ?? 1)).toFixed(2)}× ` +
        `(per run ${perRun?.map((ratio) => ratio.toFixed(2)).join(', ')}); ` +
        `by CPU per order ${((medians[1]?.cpuMicrosPerOrder ?? 0) / (medians[0]?.cpuMicrosPerOrder ?? 1)).toFixed(2)}× ` +
        `(per run ${cpuPerRun?.map((ratio) => ratio.toFixed(2)).join(', ')})`,
    );
  }
  console.log([...lines, '', ...ratios].join('\n'));
}

main();
