/**
 * HTTP benchmark (`npm run bench:auth`; not a test): signed GET /api/v2/spot/account/info on
 * bourse (in-process, rate limits and logs off) against a bare node:http server doing the
 * same HMAC verification (bench/support/bare-server.ts), both driven by the same load
 * generator in a child process, in the same run, alternating. Reports the median req/s and
 * p99 of several runs, and bourse's throughput as a fraction of the bare server's (the
 * median of the per-run ratios, which is robust to other load on the machine).
 *
 * Settings: BENCH_RUNS (5), BENCH_DURATION_MS (3000), BENCH_WARMUP_MS (1000),
 * BENCH_CONNECTIONS (32); BOURSE_HTTP_FAST_PATH=false serves bourse through node:http alone.
 */
import { cpus, loadavg } from 'node:os';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { startBareServer } from './support/bare-server.ts';
import type { LoadResult } from './support/load.ts';
import type { LoadInput } from './support/load-process.ts';
import { makeTempDir, removeDir } from '../test/support/server.ts';

const PATH = '/api/v2/spot/account/info';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

const LOAD_PROCESS = fileURLToPath(new URL('./support/load-process.ts', import.meta.url));

/** Runs the load generator in a child process and reads its JSON result. */
function load(input: LoadInput): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', LOAD_PROCESS, JSON.stringify(input)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as LoadResult),
    );
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function main(): Promise<void> {
  const dataDir = makeTempDir('bourse-bench-');
  const config = {
    ...loadConfig({
      BOURSE_DATA_DIR: dataDir,
      PORT: '0',
      BOURSE_RATE_LIMITS: 'off',
      BOURSE_FEED: 'off',
      BOURSE_LIQUIDITY: 'off',
      BOURSE_HTTP_FAST_PATH: process.env.BOURSE_HTTP_FAST_PATH ?? '',
    }),
    log: 'off' as const,
  };
  const bourse = await startServer(config);
  const { apiKey = '', secretKey = '', passphrase = '', uid = '' } = bourse.credentials;
  const bare = await startBareServer({ apiKey, secretKey, passphrase, uid });
  const targets = [
    { name: 'bare node:http + HMAC', port: bare.port },
    { name: 'bourse', port: Number(new URL(bourse.url).port) },
  ];
  const results = new Map<string, LoadResult[]>(targets.map((target) => [target.name, []]));
  try {
    for (let run = 0; run < RUNS; run += 1) {
      for (const target of run % 2 === 0 ? targets : [...targets].reverse()) {
        const input: LoadInput = {
          host: '127.0.0.1',
          port: target.port,
          path: PATH,
          connections: CONNECTIONS,
          durationMs: DURATION_MS,
          signing: { apiKey, secretKey, passphrase },
        };
        await load({ ...input, durationMs: WARMUP_MS });
        const cpuAtStart = process.cpuUsage();
        const result = await load(input);
        const cpu = process.cpuUsage(cpuAtStart);
        const serverCpuPercent = ((cpu.user + cpu.system) / 1000 / result.elapsedMs) * 100;
        if (result.errors > 0 || result.non200 > 0) {
          throw new Error(`${target.name}: ${result.errors} errors, ${result.non200} non-200 answers`);
        }
        results.get(target.name)?.push(result);
        process.stderr.write(
          `run ${run + 1}/${RUNS} ${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s, ` +
            `p99 ${result.p99Ms.toFixed(2)} ms, server CPU ${serverCpuPercent.toFixed(0)}%, ` +
            `client CPU ${result.clientCpuPercent.toFixed(0)}%\n`,
        );
      }
    }
  } finally {
    await bare.close();
    await bourse.close();
    removeDir(dataDir);
  }
  const summary = targets.map((target) => {
    const runs = results.get(target.name) ?? [];
    return {
      name: target.name,
      rps: median(runs.map((result) => result.requestsPerSecond)),
      p50: median(runs.map((result) => result.p50Ms)),
      p99: median(runs.map((result) => result.p99Ms)),
    };
  });
  const [peer, ours] = summary;
  const ratio = (ours?.rps ?? 0) / (peer?.rps ?? 1);
  // Each run measures both servers back to back, so the ratio within a run is robust to
  // load that comes and goes on the machine; its median is the headline figure.
  const pairRatios = (results.get(targets[1]?.name ?? '') ?? []).map(
    (result, run) =>
      result.requestsPerSecond / (results.get(targets[0]?.name ?? '')?.[run]?.requestsPerSecond ?? 1),
  );
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const lines = [
    `Signed GET ${PATH}, ${CONNECTIONS} keep-alive connections, median of ${RUNS} runs of ${DURATION_MS / 1000} s`,
    `(Node ${process.version}, ${cpus().length} × ${cpu}; load generator in a child process)`,
    '',
    '| server | req/s | p50 ms | p99 ms |',
    '|---|---|---|---|',
    ...summary.map(
      (row) => `| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} |`,
    ),
    '',
    `bourse / bare throughput: **${median(pairRatios).toFixed(2)}** (median of per-run ratios ` +
      `${pairRatios.map((value) => value.toFixed(2)).join(', ')}; ratio of medians ${ratio.toFixed(2)}; goal ≥ 0.80)`,
    `load average during the run: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
