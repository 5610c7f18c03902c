/**
 * Rate limits shared by every edge of a cluster, through PostgreSQL (the cluster's store; no
 * other service). The venue's limits are per second, per UID or per IP and route; a client
 * that spreads its requests over several edges gets the same budget as on one.
 *
 * Cheap per request: an edge decides each request in memory, from the count of the key's
 * current second as PostgreSQL last told it (`known`, every edge's requests) plus its own
 * requests not yet reported (`pending`). Every `syncMs` it adds its pending counts to the
 * shared rows in one statement, which answers with the new totals. So a request costs a map
 * lookup; the database sees one statement per edge per interval, whatever the load.
 *
 * The approximation: an edge does not see the other edges' requests of the last interval
 * (and one round trip). A key limited to L per second gets at most L plus what the other
 * edges admitted for it in the last `syncMs` before they learnt the total, and never more than
 * L on each edge. With one client spread evenly over E edges at rate R per second, that is
 * about (E−1) × R × syncMs / 1000 over L (docs/cluster.md).
 *
 * Seconds are PostgreSQL's, not the edge's: each edge measures its offset to the database's
 * clock at start and every cleanup, so edges with skewed clocks still share one window.
 *
 * Through a leader failover nothing changes: the counts are in PostgreSQL, not in any engine.
 * If PostgreSQL cannot be reached, each edge goes on counting alone (at most L on each edge)
 * and reports what it counted once it can.
 */
import type pg from 'pg';
import { RateLimiter, type RateLimitConfig } from '../api/rate-limit.ts';
import type { RateLimitRule } from '../api/request.ts';
import { createTableOnce } from './create-table.ts';

const CREATE = `CREATE TABLE IF NOT EXISTS cluster_rate_counts (
  cluster TEXT NOT NULL, window_key TEXT NOT NULL, second BIGINT NOT NULL, count BIGINT NOT NULL,
  PRIMARY KEY (cluster, window_key, second))`;

/** Adds each key's pending count to its row of the second and answers the totals. */
const ADD = `INSERT INTO cluster_rate_counts (cluster, window_key, second, count)
  SELECT $1, k, s, c FROM unnest($2::text[], $3::bigint[], $4::bigint[]) AS t(k, s, c)
  ON CONFLICT (cluster, window_key, second)
  DO UPDATE SET count = cluster_rate_counts.count + EXCLUDED.count
  RETURNING window_key, second, count`;

/** Past seconds' rows are kept this long, then deleted (a few seconds would do). */
const KEEP_SECONDS = 10;
const CLEAN_EVERY_MS = 5_000;
/** Clock readings per offset measure (at start and with each clean-up); the quickest counts. */
const OFFSET_SAMPLES = 3;

interface Count {
  second: number;
  /** Every edge's requests in `second`, as of the last sync (this edge's reported ones included). */
  known: number;
  /** This edge's requests in `second` not yet reported. */
  pending: number;
}

export interface SharedRateLimitSettings {
  pool: pg.Pool;
  cluster: string;
  config: RateLimitConfig;
  /** How often counts are reported and totals learnt. */
  syncMs: number;
  onError: (error: unknown) => void;
}

export class SharedRateLimiter {
  private readonly counts = new Map<string, Count>();
  /** PostgreSQL's clock minus this process's (ms). */
  private offsetMs = 0;
  private syncing = false;
  private timer: NodeJS.Timeout | null = null;
  private lastCleanMs = 0;
  /** Statements that failed since the last that succeeded (0: in touch with PostgreSQL). */
  failedSyncs = 0;

  private constructor(private readonly settings: SharedRateLimitSettings) {}

  static async start(settings: SharedRateLimitSettings): Promise<SharedRateLimiter> {
    const limiter = new SharedRateLimiter(settings);
    await createTableOnce(settings.pool, CREATE);
    await limiter.measureOffset();
    limiter.timer = setInterval(() => void limiter.sync(), settings.syncMs);
    return limiter;
  }

  /** PostgreSQL's clock minus this process's, as last measured (ms). */
  get clockOffsetMs(): number {
    return this.offsetMs;
  }

  /** The current second on PostgreSQL's clock. */
  private second(nowMs: number): number {
    return Math.floor((nowMs + this.offsetMs) / 1000);
  }

  /** Counts one request; false when it is over the limit (a refused request is not counted). */
  allow(path: string, rule: RateLimitRule, subject: string, nowMs: number): boolean {
    const { config } = this.settings;
    if (!config.enabled) return true;
    const limit = RateLimiter.limitOf(config, path, rule);
    const second = this.second(nowMs);
    const key = `${path}|${subject}`;
    let count = this.counts.get(key);
    if (!count || count.second !== second) {
      if (count && count.pending > 0) this.flushLater(key, count);
      count = { second, known: 0, pending: 0 };
      this.counts.set(key, count);
    }
    if (count.known + count.pending >= limit) return false;
    count.pending += 1;
    return true;
  }

  /** Counts of a past second not reported yet: kept under their own key until the next sync. */
  private readonly late = new Map<string, Count>();

  private flushLater(key: string, count: Count): void {
    this.late.set(`${key}\u0000${count.second}`, count);
  }

  /** Reports pending counts and learns the totals of every key counted this second. */
  async sync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    const now = Date.now();
    const second = this.second(now);
    const keys: string[] = [];
    const seconds: number[] = [];
    const added: number[] = [];
    const sent = new Map<string, { count: Count; reported: number }>();
    const send = (key: string, count: Count) => {
      // One row once per statement: PostgreSQL refuses to update a row twice in one.
      if (sent.has(`${key}\u0000${count.second}`)) return;
      keys.push(key);
      seconds.push(count.second);
      added.push(count.pending);
      sent.set(`${key}\u0000${count.second}`, { count, reported: count.pending });
    };
    for (const [key, count] of this.counts) {
      if (count.second === second) send(key, count);
      else {
        // A past second: reported once more if it has pending requests, then forgotten.
        this.counts.delete(key);
        if (count.pending > 0) this.flushLater(key, count);
      }
    }
    for (const [lateKey, count] of this.late) send(lateKey.slice(0, lateKey.indexOf('\u0000')), count);
    try {
      if (keys.length > 0) {
        const { rows } = await this.settings.pool.query<{
          window_key: string;
          second: string;
          count: string;
        }>(ADD, [this.settings.cluster, keys, seconds, added]);
        for (const row of rows) {
          const one = sent.get(`${row.window_key}\u0000${row.second}`);
          if (!one) continue;
          one.count.known = Number(row.count);
          one.count.pending -= one.reported;
        }
        this.late.clear();
      }
      this.failedSyncs = 0;
      if (now - this.lastCleanMs >= CLEAN_EVERY_MS) await this.clean(second);
    } catch (error) {
      if (this.failedSyncs === 0) this.settings.onError(error);
      this.failedSyncs += 1;
    } finally {
      this.syncing = false;
    }
  }

  private async clean(second: number): Promise<void> {
    this.lastCleanMs = Date.now();
    await this.settings.pool.query('DELETE FROM cluster_rate_counts WHERE cluster = $1 AND second < $2', [
      this.settings.cluster,
      second - KEEP_SECONDS,
    ]);
    await this.measureOffset();
  }

  /**
   * PostgreSQL's clock minus this process's, from the round trip of OFFSET_SAMPLES readings that
   * took the least time: a reading is off by up to half its round trip, and on a loaded
   * machine one round trip can take tens of ms, enough to put this edge's second boundaries
   * that far from the other edges' and count a request in the wrong second.
   */
  private async measureOffset(): Promise<void> {
    let best: { roundTripMs: number; offsetMs: number } | null = null;
    for (let sample = 0; sample < OFFSET_SAMPLES; sample += 1) {
      const before = performance.now();
      const beforeMs = Date.now();
      const { rows } = await this.settings.pool.query<{ ms: string }>(
        'SELECT floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS ms',
      );
      const roundTripMs = performance.now() - before;
      const row = rows[0];
      if (row && (best === null || roundTripMs < best.roundTripMs))
        best = { roundTripMs, offsetMs: Number(row.ms) - Math.round(beforeMs + roundTripMs / 2) };
    }
    if (best) this.offsetMs = best.offsetMs;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
