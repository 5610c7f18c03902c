/**
 * Idle disk writes (`npm run bench:idle`; not a test): a server at its defaults (price feed
 * and liquidity provider on, demo account seeded, `src/main.ts` as `npm start` runs it) on a
 * fresh store, left alone. After BENCH_WARMUP_MS it samples for BENCH_DURATION_MS and prints,
 * extrapolated to a day:
 * - SQLite: the bytes the server process wrote (/proc/<pid>/io, every thread: `wchar`, the
 *   bytes of its write calls, and `write_bytes`, what the kernel counted as written to storage)
 *   and the growth of the database file, split into the journal and the rest (dbstat);
 * - PostgreSQL: the database's growth (`pg_database_size`), the journal's share, and the WAL
 *   the cluster wrote meanwhile (`pg_current_wal_lsn`; cluster-wide, so an upper bound when
 *   other databases are busy);
 * - both: journal records per second by command type.
 *
 * `wchar` is the figure to read: on this machine's ext4, `write_bytes` counts a write into a
 * file region written before (a recycled WAL, SQLite's WAL restarted from its beginning) many
 * times over, e.g. 160 MiB for 1 MiB of 8 KiB writes each followed by fdatasync into a
 * preallocated 16 MiB file. An idle server makes no socket or pipe writes of note, so for
 * SQLite `wchar` is its file writes; for PostgreSQL it also holds the few results sent back.
 *
 * Settings: BENCH_STORES (sqlite,postgres), BENCH_WARMUP_MS (30000), BENCH_DURATION_MS
 * (180000), BENCH_POSTGRES_URL (admin URL; a database is made and dropped), BENCH_ENV (extra
 * server settings, `NAME=value,…`, e.g. `BOURSE_SNAPSHOT_EVERY=2000`),
 * BENCH_POSTGRES_DATA_DIR (the data directory of the PostgreSQL at BENCH_POSTGRES_URL, readable
 * here: then the bytes its processes wrote are reported too, /proc/<pid>/io of the postmaster
 * and its children). For PostgreSQL figures of bourse alone, give it a cluster of its own:
 *
 *   su postgres -c "initdb -D /tmp/pg/data -A trust" && su postgres -c "pg_ctl -D /tmp/pg/data \
 *     -o '-p 55432 -c listen_addresses=127.0.0.1' -l /tmp/pg/log start"
 *   BENCH_POSTGRES_URL=postgres://postgres@127.0.0.1:55432/postgres \
 *     BENCH_POSTGRES_DATA_DIR=/tmp/pg/data npm run bench:idle
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { benchDatabase, freePort, REPO_ROOT } from './support/bourse-child.ts';

const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 30_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 180_000);
const STORES = (process.env.BENCH_STORES ?? 'sqlite,postgres').split(',').filter(Boolean);
const EXTRA_ENV: Record<string, string> = Object.fromEntries(
  (process.env.BENCH_ENV ?? '')
    .split(',')
    .filter(Boolean)
    .map((pair) => pair.split('=', 2) as [string, string]),
);
const DAY_MS = 86_400_000;

interface Sample {
  timeMs: number;
  /** Bytes the kernel counted as written by the store's processes (write_bytes). */
  processBytes: number;
  /** Bytes the store's processes passed to write calls (wchar: files, and pipes or sockets). */
  writeCalls: number;
  storeBytes: number;
  journalBytes: number;
  /** PostgreSQL: the cluster's WAL position in bytes. */
  walBytes: number;
  lastSeq: number;
  /** Records the journal holds (fewer than lastSeq once retention has pruned it). */
  journalRows: number;
  /** Records after `since` by command type (the first sample's lastSeq; empty in the first). */
  types: Map<string, number>;
}

interface ProcessIo {
  writeBytes: number;
  wchar: number;
}

function processIo(pid: number): ProcessIo {
  const text = readFileSync(`/proc/${pid}/io`, 'utf8');
  return {
    writeBytes: Number(/write_bytes: (\d+)/.exec(text)?.[1] ?? 0),
    wchar: Number(/wchar: (\d+)/.exec(text)?.[1] ?? 0),
  };
}

/** What a PostgreSQL cluster's processes wrote (its postmaster and the children alive now). */
function clusterIo(dataDir: string | undefined): ProcessIo {
  const sum = { writeBytes: 0, wchar: 0 };
  if (!dataDir) return sum;
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const add = (pid: number) => {
    const io = processIo(pid);
    sum.writeBytes += io.writeBytes;
    sum.wchar += io.wchar;
  };
  add(postmaster);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1]);
      if (parent === postmaster) add(Number(entry));
    } catch {
      // The process ended meanwhile.
    }
  }
  return sum;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

async function sqliteSample(dataDir: string, pid: number, since: number | null): Promise<Sample> {
  const file = join(dataDir, 'bourse.db');
  const db = new Database(file, { readonly: true });
  try {
    const journal = db.prepare("SELECT COALESCE(SUM(pgsize), 0) AS bytes FROM dbstat WHERE name = 'journal'");
    const types = (
      since === null
        ? []
        : db.prepare('SELECT type, COUNT(*) AS n FROM journal WHERE seq > ? GROUP BY type').all(since)
    ) as { type: string; n: number }[];
    const counts = db.prepare('SELECT COALESCE(MAX(seq), 0) AS last, COUNT(*) AS n FROM journal').get() as {
      last: number;
      n: number;
    };
    return {
      timeMs: Date.now(),
      processBytes: processIo(pid).writeBytes,
      writeCalls: processIo(pid).wchar,
      storeBytes: sizeOf(file),
      journalBytes: (journal.get() as { bytes: number }).bytes,
      walBytes: 0,
      lastSeq: counts.last,
      journalRows: counts.n,
      types: new Map(types.map((row) => [row.type, row.n])),
    };
  } finally {
    db.close();
  }
}

async function postgresSample(url: string, since: number | null): Promise<Sample> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const size = await client.query<{ store: string; journal: string; wal: string }>(
      "SELECT pg_database_size(current_database()) AS store, pg_total_relation_size('journal') AS journal, " +
        "pg_current_wal_lsn() - '0/0' AS wal",
    );
    const types =
      since === null
        ? { rows: [] }
        : await client.query<{ type: string; n: string }>(
            'SELECT type, COUNT(*) AS n FROM journal WHERE seq > $1 GROUP BY type',
            [since],
          );
    const counts = await client.query<{ last: string; n: string }>(
      'SELECT COALESCE(MAX(seq), 0) AS last, COUNT(*) AS n FROM journal',
    );
    const row = size.rows[0];
    return {
      timeMs: Date.now(),
      ...((io) => ({ processBytes: io.writeBytes, writeCalls: io.wchar }))(
        clusterIo(process.env.BENCH_POSTGRES_DATA_DIR),
      ),
      storeBytes: Number(row?.store ?? 0),
      journalBytes: Number(row?.journal ?? 0),
      walBytes: Number(row?.wal ?? 0),
      lastSeq: Number(counts.rows[0]?.last ?? 0),
      journalRows: Number(counts.rows[0]?.n ?? 0),
      types: new Map(types.rows.map((item) => [item.type, Number(item.n)])),
    };
  } finally {
    await client.end();
  }
}

function perDay(bytes: number, ms: number): string {
  const daily = (bytes / ms) * DAY_MS;
  return daily >= 1e9 ? `${(daily / 1e9).toFixed(2)} GB/day` : `${(daily / 1e6).toFixed(1)} MB/day`;
}

function report(store: string, first: Sample, last: Sample): void {
  const ms = last.timeMs - first.timeMs;
  const seconds = ms / 1000;
  const delta = (key: 'processBytes' | 'writeCalls' | 'storeBytes' | 'journalBytes' | 'walBytes') =>
    last[key] - first[key];
  const rate = (key: 'processBytes' | 'writeCalls' | 'walBytes') =>
    `${(delta(key) / seconds / 1e3).toFixed(1)} KB/s = ${perDay(delta(key), ms)}`;
  const rates = [...last.types].map(([type, n]) => [type, n / seconds] as const).sort((a, b) => b[1] - a[1]);
  const total = (last.lastSeq - first.lastSeq) / seconds;
  const lines = [
    `${store}: idle for ${seconds.toFixed(0)} s after a ${WARMUP_MS / 1000} s warm-up`,
    store === 'sqlite'
      ? `  process wrote     ${rate('writeCalls')} in write calls; write_bytes ${rate('processBytes')}`
      : `  cluster WAL       ${rate('walBytes')} (every database of the cluster)` +
        (process.env.BENCH_POSTGRES_DATA_DIR
          ? `\n  cluster wrote     ${rate('writeCalls')} in write calls; write_bytes ${rate('processBytes')}`
          : ''),
    `  store grew        ${(delta('storeBytes') / seconds / 1e3).toFixed(2)} KB/s = ${perDay(delta('storeBytes'), ms)}` +
      ` (journal ${perDay(delta('journalBytes'), ms)})`,
    `  journal records   ${total.toFixed(2)}/s: ${rates.map(([type, rate]) => `${type} ${rate.toFixed(2)}`).join(', ')}` +
      ` (by type: those the journal still holds)`,
    `  journal holds     ${last.journalRows} records at the end (${first.journalRows} at the start), ` +
      `${(last.journalBytes / 1e6).toFixed(1)} MB; store ${(last.storeBytes / 1e6).toFixed(1)} MB`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

async function measure(store: string, cleanups: (() => Promise<void>)[]): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-idle-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = store === 'postgres' ? await benchDatabase(cleanups) : undefined;
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      BOURSE_DATA_DIR: dataDir,
      ...(databaseUrl ? { BOURSE_DATABASE_URL: databaseUrl } : {}),
      ...EXTRA_ENV,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  cleanups.unshift(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const sample = (since: number | null) =>
    databaseUrl ? postgresSample(databaseUrl, since) : sqliteSample(dataDir, child.pid ?? 0, since);
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  const first = await sample(null);
  await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
  report(store, first, await sample(first.lastSeq));
}

async function main(): Promise<void> {
  for (const store of STORES) {
    const cleanups: (() => Promise<void>)[] = [];
    try {
      await measure(store, cleanups);
    } finally {
      for (const cleanup of cleanups) await cleanup().catch(() => undefined);
    }
  }
}

await main();
