/**
 * The opt-in cluster's settings (docs/cluster.md). Unset BOURSE_ROLE (or `single`) is the
 * single process `npm start` has always been: nothing here applies. `engine` makes the
 * process one of a set of engines on one PostgreSQL database, of which one leads (a lease in
 * PostgreSQL) and the others stand by, following the journal; each entry the leader commits
 * is published to a NATS JetStream stream when BOURSE_NATS_URL is set. `edge` makes it a
 * stateless front that forwards clients to whichever engine leads.
 */

export interface ClusterConfig {
  /** `engine`: leads or stands by; `edge`: forwards clients to the leader (edge.ts). */
  role: 'engine' | 'edge';
  /** Names the lease row and the JetStream stream, so clusters can share PostgreSQL and NATS. */
  name: string;
  /** How long a lease lasts unrenewed (PostgreSQL's clock); the leader renews it every fifth of it. */
  leaseMs: number;
  /** How often a standby reads the journal's new entries and tries the lease. */
  followEveryMs: number;
  /** nats://… : publish committed entries to JetStream; unset, nothing is published. */
  natsUrl: string | undefined;
  /** The URL edges and clients reach this engine at when it leads (default: the bound address). */
  advertiseUrl: string | undefined;
  /** Edge: how long a read waits for the follower to reach what the caller must see (then 40725). */
  readWaitMs: number;
  /** Edge: how often rate-limit counts are added to the shared ones in PostgreSQL. */
  rateSyncMs: number;
}

const NAME = /^[A-Za-z0-9_-]{1,40}$/;

function positive(value: string | undefined, fallback: number, name: string, min: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new Error(`${name} must be an integer of at least ${min}`);
  return Number(value);
}

/** null for the single process; the role's settings, checked, for BOURSE_ROLE=engine or edge. */
export function parseClusterConfig(
  env: NodeJS.ProcessEnv,
  databaseUrl: string | undefined,
  serverKeyHex: string | undefined,
): ClusterConfig | null {
  const role = env.BOURSE_ROLE ?? 'single';
  if (role === 'single' || role === '') return null;
  if (role !== 'engine' && role !== 'edge') throw new Error('BOURSE_ROLE must be single, engine or edge');
  if (!databaseUrl)
    throw new Error(
      `BOURSE_ROLE=${role} needs BOURSE_DATABASE_URL (the cluster's PostgreSQL, where the lease is)`,
    );
  // Every engine must open the API keys the leader sealed, and every edge to log WebSocket
  // clients in: one key for all of them.
  if (!serverKeyHex)
    throw new Error(`BOURSE_ROLE=${role} needs BOURSE_SERVER_KEY, the same on every engine and edge`);
  const name = env.BOURSE_CLUSTER_NAME || 'bourse';
  if (!NAME.test(name)) throw new Error('BOURSE_CLUSTER_NAME must be 1-40 letters, digits, _ or -');
  const natsUrl = env.BOURSE_NATS_URL || undefined;
  if (natsUrl !== undefined && !/^(nats|tls):\/\//.test(natsUrl))
    throw new Error('BOURSE_NATS_URL must be a nats:// or tls:// URL');
  return {
    role,
    name,
    leaseMs: positive(env.BOURSE_LEASE_MS, 1_500, 'BOURSE_LEASE_MS', 300),
    followEveryMs: positive(env.BOURSE_FOLLOW_EVERY_MS, 100, 'BOURSE_FOLLOW_EVERY_MS', 10),
    natsUrl,
    advertiseUrl: env.BOURSE_ADVERTISE_URL || undefined,
    readWaitMs: positive(env.BOURSE_EDGE_READ_WAIT_MS, 1_000, 'BOURSE_EDGE_READ_WAIT_MS', 1),
    rateSyncMs: positive(env.BOURSE_EDGE_RATE_SYNC_MS, 25, 'BOURSE_EDGE_RATE_SYNC_MS', 5),
  };
}
