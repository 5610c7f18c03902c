/**
 * The leader's lease, in PostgreSQL: one row per cluster in `cluster_lease` (name, epoch,
 * holder, url, expires_at). Exactly one engine holds it; the epoch goes up by one at every
 * change of holder and is the fencing token every append of the leader carries (the store
 * refuses an append whose epoch is not the current one, under a row lock: fence.ts).
 *
 * Why a row in PostgreSQL rather than a JetStream KV lease: the journal is in PostgreSQL, so
 * the lease and the append that checks it are in one database and one transaction; a KV lease
 * would be checked in one system and written in another, with a window between them.
 *
 * Expiry is judged by PostgreSQL's clock alone (clock_timestamp()), never an engine's, so
 * clock skew between machines does not matter. Two ways to take it:
 * - expired: the leader stopped renewing (stuck, paused, cut off from PostgreSQL);
 * - at once: the leader's lease connection holds a session advisory lock, which PostgreSQL
 *   drops when that session ends (the process died, its socket closed). A standby that gets
 *   the advisory lock knows no live leader holds it and takes the lease without waiting for
 *   the expiry. So a crash fails over in about one follow interval, a stall in one lease time.
 * A leader that took an expired lease while the old one still holds the advisory lock ends
 * that old session (pg_terminate_backend): the old leader is fenced by the epoch already.
 */
import { crc32 } from 'node:zlib';
import pg from 'pg';
import { createTableOnce } from './create-table.ts';

const LOCK_CLASS = 0x636c7573; // 'clus'

export interface LeaseSettings {
  url: string;
  /** The cluster's name (the row's key). */
  name: string;
  /** Who holds it, for operators: `bourse pid 123 on host`. */
  holder: string;
  /** Where the holder answers (edges forward to it). */
  advertiseUrl: string;
  ttlMs: number;
  connectTimeoutMs?: number;
}

export interface LeaseHolder {
  epoch: number;
  holder: string;
  url: string;
  /** Whether it is still within its time, by PostgreSQL's clock. */
  live: boolean;
}

const CREATE = `CREATE TABLE IF NOT EXISTS cluster_lease (
  name TEXT PRIMARY KEY, epoch BIGINT NOT NULL, holder TEXT NOT NULL, url TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL)`;

/** Takes the row when it is new, expired, or `$5` (the advisory lock says no leader lives). */
const TAKE = `INSERT INTO cluster_lease (name, epoch, holder, url, expires_at)
  VALUES ($1, 1, $2, $3, clock_timestamp() + $4 * interval '1 millisecond')
  ON CONFLICT (name) DO UPDATE SET epoch = cluster_lease.epoch + 1, holder = EXCLUDED.holder,
    url = EXCLUDED.url, expires_at = EXCLUDED.expires_at
  WHERE cluster_lease.expires_at < clock_timestamp() OR $5::boolean
  RETURNING epoch`;

const RENEW = `UPDATE cluster_lease SET expires_at = clock_timestamp() + $3 * interval '1 millisecond'
  WHERE name = $1 AND epoch = $2 AND expires_at > clock_timestamp() RETURNING epoch`;

/** The advisory lock's second key: the cluster's name, as a signed 32-bit integer. */
function lockKey(name: string): number {
  return crc32(name) | 0;
}

export async function createLeaseTable(client: pg.Client | pg.Pool): Promise<void> {
  await createTableOnce(client, CREATE);
}

/** Who holds the lease of `name` (null before any engine took it). */
export async function leaseHolder(client: pg.Client | pg.Pool, name: string): Promise<LeaseHolder | null> {
  const { rows } = await client.query<{ epoch: string; holder: string; url: string; live: boolean }>(
    'SELECT epoch, holder, url, expires_at > clock_timestamp() AS live FROM cluster_lease WHERE name = $1',
    [name],
  );
  const row = rows[0];
  return row ? { epoch: Number(row.epoch), holder: row.holder, url: row.url, live: row.live } : null;
}

export class Lease {
  private epochTaken: number | null = null;
  private lockHeld = false;
  private renewTimer: NodeJS.Timeout | null = null;
  private lastRenewedMs = 0;
  private released = false;

  private constructor(
    private readonly client: pg.Client,
    private readonly settings: LeaseSettings,
  ) {}

  static async open(settings: LeaseSettings): Promise<Lease> {
    const client = new pg.Client({
      connectionString: settings.url,
      application_name: settings.holder.slice(0, 63),
      connectionTimeoutMillis: settings.connectTimeoutMs ?? 5_000,
      keepAlive: true,
    });
    client.on('error', () => undefined);
    await client.connect();
    await createLeaseTable(client);
    return new Lease(client, settings);
  }

  get epoch(): number | null {
    return this.epochTaken;
  }

  /** Takes the lease if it is free; its epoch, or null when another engine leads. */
  async tryTake(): Promise<number | null> {
    const { name, holder, advertiseUrl, ttlMs } = this.settings;
    if (!this.lockHeld) {
      const { rows } = await this.client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [LOCK_CLASS, lockKey(name)],
      );
      this.lockHeld = rows[0]?.locked === true;
    }
    const startedMs = performance.now();
    const { rows } = await this.client.query<{ epoch: string }>(TAKE, [
      name,
      holder,
      advertiseUrl,
      ttlMs,
      this.lockHeld,
    ]);
    const row = rows[0];
    if (!row) return null;
    this.epochTaken = Number(row.epoch);
    this.lastRenewedMs = startedMs;
    if (!this.lockHeld) await this.endOldSession();
    return this.epochTaken;
  }

  /** Took an expired lease: the old leader's session still holds the advisory lock; end it. */
  private async endOldSession(): Promise<void> {
    const key = lockKey(this.settings.name);
    await this.client.query(
      `SELECT pg_terminate_backend(l.pid) FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2
          AND l.objsubid = 2 AND l.pid <> pg_backend_pid()
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [LOCK_CLASS, key >>> 0],
    );
    for (let attempt = 0; attempt < 20 && !this.lockHeld; attempt += 1) {
      const { rows } = await this.client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, $2) AS locked',
        [LOCK_CLASS, key],
      );
      this.lockHeld = rows[0]?.locked === true;
      if (!this.lockHeld) await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /**
   * Renews every fifth of the lease time. `onLost` is called once when the lease is gone: a
   * renewal found a newer epoch or an expired row, or none succeeded for a whole lease time.
   */
  keepRenewing(onLost: (why: string) => void): void {
    const { name, ttlMs } = this.settings;
    const everyMs = Math.max(50, Math.floor(ttlMs / 5));
    let lost = false;
    const lose = (why: string) => {
      if (lost || this.released) return;
      lost = true;
      this.stopRenewing();
      onLost(why);
    };
    const tick = () => {
      if (this.released || lost) return;
      const startedMs = performance.now();
      this.client
        .query(RENEW, [name, this.epochTaken, ttlMs])
        .then(({ rowCount }) => {
          if (rowCount === 1) this.lastRenewedMs = startedMs;
          else lose(`the lease of epoch ${this.epochTaken} was taken over or expired`);
        })
        .catch((error: unknown) => {
          if (performance.now() - this.lastRenewedMs > ttlMs)
            lose(`the lease could not be renewed: ${error instanceof Error ? error.message : String(error)}`);
        })
        .finally(() => {
          if (!this.released && !lost) this.renewTimer = setTimeout(tick, everyMs);
        });
    };
    this.renewTimer = setTimeout(tick, everyMs);
  }

  private stopRenewing(): void {
    if (this.renewTimer) clearTimeout(this.renewTimer);
    this.renewTimer = null;
  }

  /**
   * Lets go: a leader's lease is ended at once (expires now), so a standby takes over without
   * waiting; the connection closes, which drops the advisory lock.
   */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.stopRenewing();
    if (this.epochTaken !== null) {
      await this.client
        .query('UPDATE cluster_lease SET expires_at = clock_timestamp() WHERE name = $1 AND epoch = $2', [
          this.settings.name,
          this.epochTaken,
        ])
        .catch(() => undefined);
    }
    await this.client.end().catch(() => undefined);
  }
}
