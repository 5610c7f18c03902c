// Profile driver for the full engine (not a test, not a benchmark with a peer): runs the
// crossing stream of bench:engine-full on fresh engines and prints the CPU µs per order of
// each run, for `--cpu-prof` or a heap-sampling profile. Bundled first, so that profiles name
// real lines (tsx's output puts each module on one line):
//
//   npx esbuild --bundle --platform=node --format=esm --outfile=/tmp/engine.mjs bench/engine-full-profile.ts
//   node --max-semi-space-size=64 --cpu-prof --cpu-prof-interval=100 /tmp/engine.mjs
//
//   BENCH_ORDERS=200000 (orders per run)  BENCH_PER_COMMAND=20 (or 1)  BENCH_RUNS=5
import { Exchange } from '../src/engine/exchange.ts';
import { crossingStream } from './engine-full-streams.ts';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 200_000);
const PER_COMMAND = Number(process.env.BENCH_PER_COMMAND ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

const stream = crossingStream(ORDERS, PER_COMMAND);
for (let run = 0; run < RUNS; run += 1) {
  const exchange = new Exchange();
  for (const command of stream.setup) exchange.execute(command);
  const before = process.cpuUsage();
  for (const command of stream.commands) exchange.execute(command);
  const used = process.cpuUsage(before);
  process.stderr.write(
    `run ${run}: ${((used.user + used.system) / stream.orderCount).toFixed(3)} µs/order\n`,
  );
}
