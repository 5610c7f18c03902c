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
  const execute = Boolean(process.env.EXECUTE);
  for (const command of commands) {
    if (execute) exchange.execute(command);
    else exchange.replay(command);
  }
  const ms = performance.now() - started;
  process.stdout.write(
    `replayed ${commands.length} in ${ms.toFixed(0)} ms: ${((commands.length / ms) * 1000).toFixed(0)} commands/s\n`,
  );
}
