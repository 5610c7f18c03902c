/**
 * One server per PostgreSQL database. Two servers with their own data directories but one
 * BOURSE_DATABASE_URL would interleave their journals, so the second is refused at start.
 *
 * How: a session-level advisory lock (`pg_try_advisory_lock`) on a connection of its own,
 * held for the server's life. PostgreSQL drops it when that session ends, however the
 * process ended, so a crashed server never blocks the next start. The connection's
 * application_name says which process holds it (`bourse pid 1234 on host`), which the
 * refusal message quotes from pg_stat_activity.
 *
 * If the connection breaks (PostgreSQL restarted, the network cut), the lock is gone with it:
 * it is taken again on a new connection, retried with backoff, and every failure, including
 * finding it taken by another server meanwhile, is reported through `onError`.
 *
 * The two-key form (classid 'bour', objid 'serv') cannot collide with the store's migration
 * lock, which uses the one-key form.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { describeUrl } from './postgres-store.ts';

const LOCK_CLASS = 0x626f7572; // 'bour'
const LOCK_OBJECT = 0x73657276; // 'serv'
const RETRY_FIRST_MS = 500;
const RETRY_LONGEST_MS = 30_000;

export interface DatabaseLock {
  /** Ends the lock's connection, which drops the lock (idempotent). */
  release(): Promise<void>;
}

export interface DatabaseLockOptions {
  connectTimeoutMs?: number;
  onError?: (error: unknown) => void;
}

/** application_name is at most 63 bytes; PostgreSQL truncates longer ones. */
function lockOwnerName(): string {
  return `bourse pid ${process.pid} on ${hostname()}`.slice(0, 63);
}

async function holderOf(client: pg.Client): Promise<string> {
  const { rows } = await client.query<{
    pid: number;
    name: string | null;
    addr: string | null;
    since: Date | null;
  }>(
    `SELECT a.pid, a.application_name AS name, host(a.client_addr) AS addr, a.backend_start AS since
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [LOCK_CLASS, LOCK_OBJECT],
  );
  const row = rows[0];
  if (!row) return 'another bourse server';
  const who = row.name ? `"${row.name}"` : 'another bourse server';
  const from = row.addr ? ` connected from ${row.addr}` : '';
  const since = row.since ? ` since ${row.since.toISOString()}` : '';
  return `${who} (PostgreSQL backend pid ${row.pid}${from}${since})`;
}

async function connect(url: string, options: DatabaseLockOptions): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: url,
    application_name: lockOwnerName(),
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    keepAlive: true,
  });
  // Until watch() listens, an error (the backend terminated while the lock is being taken)
  // must not throw from the emitter: the pending connect or query rejects with it instead.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

/** Takes the lock on `client`'s session; throws naming the holder when another has it. */
async function take(client: pg.Client, url: string): Promise<void> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
    LOCK_CLASS,
    LOCK_OBJECT,
  ]);
  if (rows[0]?.locked) return;
  throw new Error(
    `the PostgreSQL database ${describeUrl(url)} (BOURSE_DATABASE_URL) is in use by ${await holderOf(client)}: ` +
      'two servers on one database corrupt its journal. Stop the other server first, or give this one its own database',
  );
}

/** Takes the database's lock, or throws naming the database and the server that holds it. */
export async function lockPostgresDatabase(
  url: string,
  options: DatabaseLockOptions = {},
): Promise<DatabaseLock> {
  let client = await connect(url, options);
  try {
    await take(client, url);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let released = false;
  let retryTimer: NodeJS.Timeout | null = null;
  const retake = (waitMs: number): void => {
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (released) return;
      connect(url, options)
        .then(async (fresh) => {
          try {
            await take(fresh, url);
          } catch (error) {
            await fresh.end().catch(() => undefined);
            throw error;
          }
          if (released) return void fresh.end().catch(() => undefined);
          watch(fresh);
        })
        .catch((error: unknown) => {
          options.onError?.(error);
          retake(Math.min(waitMs * 2, RETRY_LONGEST_MS));
        });
    }, waitMs);
  };
  const watch = (held: pg.Client): void => {
    client = held;
    let lost = false;
    const onLost = (why: string): void => {
      if (lost || released) return;
      lost = true;
      options.onError?.(new Error(`the PostgreSQL server lock's connection ended (${why}); taking it again`));
      held.end().catch(() => undefined);
      retake(RETRY_FIRST_MS);
    };
    // A client may emit several errors; each needs a listener or it would throw.
    held.on('error', (error) => onLost(error.message));
    held.on('end', () => onLost('closed by the server'));
  };
  watch(client);
  return {
    async release() {
      if (released) return;
      released = true;
      if (retryTimer) clearTimeout(retryTimer);
      await client.end().catch(() => undefined);
    },
  };
}
