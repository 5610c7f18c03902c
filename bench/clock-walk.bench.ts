/**
 * Advancing the simulated clock along the price feeds' path (`npm run bench:walk`; not a
 * test). A server on its defaults (price feed and liquidity provider on, SQLite), on the
 * simulated clock, is advanced one day of one-second steps through the operator API,
 * BENCH_RUNS (3) times on fresh data directories. The peer, measured in the same run: the
 * engine alone replaying the same journal (every AdvanceClock with its path, the liquidity
 * provider's orders), which is the share of the time that is matching and risk rather than
 * journal, projections and HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { Exchange } from '../src/engine/exchange.ts';
import { openStore } from '../src/persistence/open-store.ts';
import { startServer } from '../src/server.ts';
import { median } from './support/bourse-child.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const DAY_MS = 86_400_000;
const TOKEN = 'bench-operator-token-0123456789abcdef';

interface Run {
  walkSeconds: number;
  replaySeconds: number;
  steps: number;
  journalEntries: number;
}

async function advance(url: string, ms: number): Promise<void> {
  const response = await fetch(`${url}/admin/v1/clock/advance`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ms: String(ms) }),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`advance answered ${response.status} ${text}`);
}

async function replayJournal(dataDir: string): Promise<{ seconds: number; steps: number; entries: number }> {
  const store = await openStore({ dataDir, databaseUrl: undefined });
  const commands = [];
  for await (const page of store.journalAfter(0)) for (const entry of page) commands.push(entry.command);
  await store.close();
  const exchange = new Exchange();
  let steps = 0;
  const started = performance.now();
  for (const command of commands) {
    exchange.replay(command);
    if (command.type === 'AdvanceClock')
      for (const stream of command.path ?? []) steps += stream.prices.length;
  }
  return { seconds: (performance.now() - started) / 1000, steps, entries: commands.length };
}

async function oneRun(): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-walk-bench-'));
  try {
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      BOURSE_DATA_DIR: dataDir,
      BOURSE_OPERATOR_TOKEN: TOKEN,
      BOURSE_CLOCK: 'simulated',
      BOURSE_CLOCK_START: '2026-11-02T00:00:00Z',
      BOURSE_LOG: 'off',
      // The engine replays the whole journal afterwards: keep all of it.
      BOURSE_JOURNAL_RETAIN_HOURS: 'all',
    });
    const server = await startServer(config, null);
    const started = performance.now();
    await advance(server.url, DAY_MS);
    const walkSeconds = (performance.now() - started) / 1000;
    // Stop without the closing snapshot's effect on what is measured: the journal is replayed whole.
    await server.close();
    const replay = await replayJournal(dataDir);
    return {
      walkSeconds,
      replaySeconds: replay.seconds,
      steps: replay.steps,
      journalEntries: replay.entries,
    };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs: Run[] = [];
for (let run = 0; run < RUNS; run += 1) {
  const result = await oneRun();
  runs.push(result);
  console.log(
    `run ${run + 1}: day walked in ${result.walkSeconds.toFixed(2)} s; engine alone replays it in ` +
      `${result.replaySeconds.toFixed(2)} s (${result.steps} stream steps, ${result.journalEntries} journal entries)`,
  );
}
const walk = median(runs.map((run) => run.walkSeconds));
const replay = median(runs.map((run) => run.replaySeconds));
const steps = runs[0]?.steps ?? 0;
console.log(
  `\nOne day of one-second steps, median of ${RUNS}: ${walk.toFixed(2)} s through the server ` +
    `(${Math.round(steps / walk)} stream steps/s), ${replay.toFixed(2)} s for the engine alone; ` +
    `server / engine ${(walk / replay).toFixed(2)} x`,
);
