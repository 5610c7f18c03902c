/**
 * CPU time by thread, from Linux's /proc (empty elsewhere): what each thread of a server, and
 * each PostgreSQL backend serving it, spent during a run. CPU time per order moves far less
 * than throughput on a machine whose speed drifts, so it is the figure to compare changes by.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/**
 * utime + stime of one /proc stat file (a process's or a thread's), in ms: fields 14 and 15,
 * in clock ticks of 10 ms; `missing` when it cannot be read (gone, or not Linux).
 */
export function statCpuMs(file: string, missing = 0): number {
  try {
    const stat = readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return missing;
  }
}

/** CPU ms of each thread of `pid`, by thread id. */
export function threadCpuMs(pid: number): Map<number, number> {
  const times = new Map<number, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      times.set(Number(tid), statCpuMs(`/proc/${pid}/task/${tid}/stat`));
    }
  } catch {
    // not Linux, or the process is gone
  }
  return times;
}

/** `spent` (by thread id of `pid`) summed by the threads' names (Linux's comm), busiest first. */
export function threadsByName(pid: number, spentByThread: Map<number, number>): Map<string, number> {
  const byName = new Map<string, number>();
  for (const [tid, ms] of spentByThread) {
    let name = tid === pid ? 'main' : `thread ${tid}`;
    if (tid !== pid) {
      try {
        name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      } catch {
        // the thread ended
      }
    }
    // Node leaves its threads named after the process: those are told apart by id.
    if (name === 'node') name = `node ${tid}`;
    byName.set(name, (byName.get(name) ?? 0) + ms);
  }
  return new Map([...byName].sort((a, b) => b[1] - a[1]));
}

/** CPU ms of each process in `pids`, by pid. */
export function processCpuMs(pids: readonly number[]): Map<number, number> {
  return new Map(pids.map((pid) => [pid, statCpuMs(`/proc/${pid}/stat`)]));
}

/** The PostgreSQL backends connected to the database of `databaseUrl` (run on its own connection). */
export async function postgresBackends(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return rows.map((row) => Number(row.pid));
  } finally {
    await client.end();
  }
}

/** What each of `before`'s keys spent between the two readings. */
export function spent(before: Map<number, number>, after: Map<number, number>): Map<number, number> {
  return new Map([...after].map(([id, ms]) => [id, ms - (before.get(id) ?? 0)]));
}
