/**
 * bourse as a child process for benchmarks (`node --import tsx src/main.ts`, as `npm start`
 * runs it), on a fresh data directory and optionally a PostgreSQL database made for the run:
 * rate limits, logs, automatic snapshots, the price feed and the liquidity provider off, so
 * the benchmark's requests are the only work. A trader account is funded through the
 * operator API and given a key.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TOKEN = 'bench-operator-token-0123456789abcdef';

export interface Trader {
  uid: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

export interface BourseChild {
  port: number;
  /** Its data directory (removed by stop). */
  dataDir: string;
  url: string;
  trader: Trader;
  process: ChildProcess;
  stop(): Promise<void>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return 0;
  return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function admin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Server settings given to the benchmark's databases (`ALTER DATABASE … SET`, so the server's
 * own configuration is left alone), from BENCH_POSTGRES_SETTINGS (`name=value,…`; empty for
 * none). The default, `wal_init_zero=off`, is what docs/configuration.md recommends: with it
 * on (PostgreSQL's default) a new 16 MiB WAL segment is written full of zeros and fsynced
 * before the commit that needs it returns, which stalled every commit for ~50 ms once per
 * segment (every ~1.2 s at 25,000 orders/s) until the server had recycled enough segments.
 */
export const BENCH_POSTGRES_SETTINGS: [name: string, value: string][] = (
  process.env.BENCH_POSTGRES_SETTINGS ?? 'wal_init_zero=off'
)
  .split(',')
  .filter(Boolean)
  .map((setting) => {
    const match = /^([a-z_]+)=([A-Za-z0-9_.]+)$/.exec(setting.trim());
    if (!match) throw new Error(`BENCH_POSTGRES_SETTINGS: "${setting}" is not name=value`);
    return [match[1] as string, match[2] as string];
  });

/** A line for a report: the settings the benchmark's PostgreSQL databases were given. */
export function postgresSettingsLine(): string {
  const settings = BENCH_POSTGRES_SETTINGS.map(([name, value]) => `${name}=${value}`).join(', ');
  return `(PostgreSQL database settings: ${settings || "the server's own"})`;
}

/** A PostgreSQL database for this run, with BENCH_POSTGRES_SETTINGS; its drop is pushed onto `cleanups`. */
export async function benchDatabase(cleanups: (() => Promise<void>)[]): Promise<string> {
  const name = `bourse_bench_${process.pid}_${randomBytes(3).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE ${name}`));
  cleanups.push(() => admin((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)));
  await admin(async (client) => {
    for (const [setting, value] of BENCH_POSTGRES_SETTINGS)
      await client.query(`ALTER DATABASE ${name} SET ${setting} = '${value}'`);
  });
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function operator<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await response.json()) as { code: string; data: T };
  if (envelope.code !== '00000') throw new Error(`${method} ${path}: ${JSON.stringify(envelope)}`);
  return envelope.data;
}

export async function startBourseChild(
  options: { databaseUrl?: string | undefined; env?: Record<string, string>; nodeOptions?: string[] } = {},
): Promise<BourseChild> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-bench-'));
  const port = await freePort();
  // BENCH_CHILD_ENTRY: a bundled build of src/main.ts instead (profiling: a bundle keeps line
  // numbers in the profile; docs/performance.md says how to make one).
  const entry = process.env.BENCH_CHILD_ENTRY
    ? [process.env.BENCH_CHILD_ENTRY]
    : ['--import', 'tsx', 'src/main.ts'];
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=64', ...(options.nodeOptions ?? []), ...entry],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        BOURSE_DATA_DIR: dataDir,
        BOURSE_OPERATOR_TOKEN: TOKEN,
        BOURSE_RATE_LIMITS: 'off',
        BOURSE_LOG: 'off',
        BOURSE_SEED_DEMO: 'false',
        BOURSE_SNAPSHOT_EVERY: '0',
        BOURSE_FEED: 'off',
        BOURSE_LIQUIDITY: 'off',
        ...(options.databaseUrl ? { BOURSE_DATABASE_URL: options.databaseUrl } : {}),
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  // BENCH_CHILD_LOG=file keeps the child's whole output (e.g. with --trace-gc in nodeOptions).
  const log = process.env.BENCH_CHILD_LOG;
  if (log) child.stdout?.on('data', (chunk: Buffer) => appendFileSync(log, chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bourse did not start: ${output}`)), 60_000);
    const check = () => {
      if (output.includes('bourse is listening on')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then(() => reject(new Error(`bourse exited: ${output}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  const { uid } = await operator<{ uid: string }>(url, 'POST', '/admin/v1/accounts', { label: 'bench' });
  for (const [coin, amount] of [
    ['USDT', '100000000000'],
    ['BTC', '10000000'],
  ]) {
    await operator(url, 'POST', `/admin/v1/accounts/${uid}/deposits`, { coin, amount });
  }
  const key = await operator<Trader>(url, 'POST', `/admin/v1/accounts/${uid}/api-keys`, {});
  return {
    port,
    dataDir,
    url,
    trader: { uid, apiKey: key.apiKey, secretKey: key.secretKey, passphrase: key.passphrase },
    process: child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
