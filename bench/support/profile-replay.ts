/**
 * Profiling aid (not a benchmark): builds a journal like bench/recovery.bench.ts's and replays
 * it through a fresh engine, engine only (no store), printing the rate: `Exchange.replay` as
 * recovery runs it, or `execute` (live, events built) with EXECUTE=1. Run with
 * `node --cpu-prof --cpu-prof-dir=DIR --import tsx bench/support/profile-replay.ts`.
 */
import { Exchange } from '../../src/engine/exchange.ts';
import { journal } from '../recovery.bench.ts';

const COUNT = Number(process.env.BENCH_COMMANDS ?? 200_000);
const built = journal(COUNT);
const commands = built.entries.map((entry) => entry.command);
for (let run = 0; run < 3; run += 1) {
  const exchange = new Exchange();
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const execute = Boolean(process.env.EXECUTE);
  for (const command of commands) {
    if (execute) exchange.execute(command);
    else exchange.replay(command);
  }
  const ms = performance.now() - started;
  const cpuMs = process.cpuUsage(cpuStarted).user / 1000;
  process.stdout.write(
    `replayed ${commands.length} in ${ms.toFixed(0)} ms (${cpuMs.toFixed(0)} ms CPU): ` +
      `${((commands.length / ms) * 1000).toFixed(0)} commands/s, ${((cpuMs * 1000) / commands.length).toFixed(2)} µs CPU each\n`,
  );
}
