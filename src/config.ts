/**
 * Settings, all from the environment (docs/configuration.md has the table). Parsed once at
 * start; a bad value stops the server with a message naming the variable.
 */
import { resolve } from 'node:path';
import { DEFAULT_AUTH_FAILURE_LIMITS, type AuthFailureLimits } from './api/auth/auth-failures.ts';
import { parseHttpLimits, type HttpLimits } from './api/http1/timeouts.ts';
import { parseRateLimitConfig, type RateLimitConfig } from './api/rate-limit.ts';
import { parseFeedConfig } from './market/feed-config.ts';
import type { MarketConfig } from './market/index.ts';
import { parseLiquidityConfig } from './market/liquidity.ts';
import { parseWsConfig, type WsConfig } from './api/ws/config.ts';
import type { PositionMode } from './domain/position.ts';
import { parseDemoCredentials, type DemoCredentials } from './demo-credentials.ts';
import { parseMetricsSettings, type MetricsSettings } from './api/health-routes.ts';
import { parseConvertSettings, type ConvertSettings } from './api/routes/convert-settings.ts';
import { parseRetention, type RetentionPolicy } from './persistence/retention.ts';
import { parseClusterConfig, type ClusterConfig } from './cluster/cluster-config.ts';
import { DEFAULT_READ_WAIT_MS } from './runtime/projected-reads.ts';
import { DEFAULT_GATHER_MS, DEFAULT_MAX_LAG_ENTRIES } from './runtime/projector.ts';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  clock: 'real' | 'simulated';
  /** Simulated clock only: where time starts on a fresh store (ms); default the wall time. */
  clockStartMs: number | undefined;
  serverKeyHex: string | undefined;
  operatorToken: string | undefined;
  log: 'info' | 'off';
  rateLimits: RateLimitConfig;
  enforceAccountMode: boolean;
  /** The futures position mode new accounts start in (BOURSE_POSITION_MODE; the venue's: hedge). */
  positionMode: PositionMode;
  snapshotEvery: number;
  /** Snapshots and journal kept once a snapshot is saved (BOURSE_JOURNAL_RETAIN_*). */
  journalRetention: RetentionPolicy;
  trustProxy: boolean;
  seedDemo: boolean;
  /** Fixed demo key, secret and passphrase (BOURSE_DEMO_*); undefined: random ones. */
  demoCredentials: DemoCredentials | undefined;
  /** postgres://… selects the PostgreSQL store; unset, the SQLite file in dataDir. */
  databaseUrl: string | undefined;
  /** SQLite writes in a writer thread (default) or inline on the event loop (BOURSE_SQLITE_WRITER). */
  sqliteWriter: 'thread' | 'inline';
  /**
   * Projection rows written behind the journal or with it (BOURSE_PROJECTION); unset, behind
   * on SQLite and inline on PostgreSQL (defaultProjection).
   */
  projection: 'behind' | 'inline';
  /** How long a history read waits for the projector before a retryable error (BOURSE_PROJECTION_READ_WAIT_MS). */
  projectionReadWaitMs: number;
  /**
   * With projection behind: journal entries acknowledged and not yet projected above which
   * acknowledgements wait for the projector (BOURSE_PROJECTION_MAX_LAG).
   */
  projectionMaxLagEntries: number;
  /**
   * With projection behind: how long acknowledged entries may gather before the projector
   * writes them, in ms (BOURSE_PROJECTION_GATHER_MS); a read that needs them writes at once.
   */
  projectionGatherMs: number;
  /** Plain keep-alive requests parsed by bourse's HTTP/1.1 fast path, the rest by node:http (BOURSE_HTTP_FAST_PATH). */
  httpFastPath: boolean;
  /** Head and request timeouts and the connection cap (BOURSE_HTTP_*; docs/configuration.md). */
  http: HttpLimits;
  /** Price feeds and the liquidity provider (BOURSE_FEED, BOURSE_LIQUIDITY_*; docs/market-data.md). */
  market: MarketConfig;
  /** WebSocket limits (BOURSE_WS_*; docs/websocket.md). */
  websocket: WsConfig;
  /** Failed passphrase checks per key and per IP per minute (BOURSE_AUTH_FAILURES_PER_*). */
  authFailures: AuthFailureLimits;
  /** GET /metrics (BOURSE_METRICS, BOURSE_METRICS_TOKEN; docs/operations.md). */
  metrics: MetricsSettings;
  /** Convert quotes: the house's spread (BOURSE_CONVERT_SPREAD; docs/wallet.md). */
  convert: ConvertSettings;
  /** The opt-in cluster (BOURSE_ROLE=engine; docs/cluster.md); null: the single process. */
  cluster: ClusterConfig | null;
}

function flag(value: string | undefined, fallback: boolean, name: string): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new Error(`${name} must be true or false`);
}

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number`);
  return Number(value);
}

/** At least one entry: with none, no answer could ever go out ahead of the projector. */
function projectionMaxLag(value: string | undefined): number {
  const entries = integer(value, DEFAULT_MAX_LAG_ENTRIES, 'BOURSE_PROJECTION_MAX_LAG');
  if (entries < 1) throw new Error('BOURSE_PROJECTION_MAX_LAG must be at least 1');
  return entries;
}

/** At most a minute: past it a gathering only holds entries in memory, the batch is full anyway. */
function projectionGatherMs(value: string | undefined): number {
  const ms = integer(value, DEFAULT_GATHER_MS, 'BOURSE_PROJECTION_GATHER_MS');
  if (ms > 60_000) throw new Error('BOURSE_PROJECTION_GATHER_MS must be at most 60000');
  return ms;
}

function databaseUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^postgres(ql)?:\/\//.test(value)) {
    throw new Error('BOURSE_DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return value;
}

function parseClockStart(text: string): number {
  const ms = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(ms) || ms <= 0) throw new Error('BOURSE_CLOCK_START must be Unix ms or an ISO date');
  return ms;
}

function positionMode(value: string | undefined): PositionMode {
  if (value === undefined || value === '') return 'hedge_mode';
  if (value === 'hedge_mode' || value === 'one_way_mode') return value;
  throw new Error('BOURSE_POSITION_MODE must be hedge_mode or one_way_mode');
}

function sqliteWriter(value: string | undefined): 'thread' | 'inline' {
  if (value === undefined || value === '' || value === 'thread') return 'thread';
  if (value === 'inline') return 'inline';
  throw new Error('BOURSE_SQLITE_WRITER must be thread or inline');
}

/**
 * Where the read-model rows are written when BOURSE_PROJECTION is unset, by store, from
 * `npm run bench:orders` (docs/performance.md, 2026-11-25): on SQLite behind and inline are
 * within the noise and behind keeps the rows off the answer's path; on PostgreSQL behind
 * gains no throughput and its projector, one connection writing every row, falls behind
 * under full load until answers wait for it (crossing p99 about 1 s against 69 ms inline).
 */
export function defaultProjection(databaseUrl: string | undefined): 'behind' | 'inline' {
  return databaseUrl === undefined ? 'behind' : 'inline';
}

function projection(value: string | undefined, databaseUrl: string | undefined): 'behind' | 'inline' {
  if (value === undefined || value === '') return defaultProjection(databaseUrl);
  if (value === 'behind') return 'behind';
  if (value === 'inline') return 'inline';
  throw new Error('BOURSE_PROJECTION must be behind or inline');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clock = env.BOURSE_CLOCK ?? 'real';
  if (clock !== 'real' && clock !== 'simulated') throw new Error('BOURSE_CLOCK must be real or simulated');
  const log = env.BOURSE_LOG ?? 'info';
  if (log !== 'info' && log !== 'off') throw new Error('BOURSE_LOG must be info or off');
  const serverKeyHex = env.BOURSE_SERVER_KEY || undefined;
  if (serverKeyHex !== undefined && !/^[0-9a-fA-F]{64}$/.test(serverKeyHex)) {
    throw new Error('BOURSE_SERVER_KEY must be 64 hex digits (32 bytes)');
  }
  const port = integer(env.PORT, 8080, 'PORT');
  if (port > 65535) throw new Error('PORT must be at most 65535');
  const seedDemo = flag(env.BOURSE_SEED_DEMO, true, 'BOURSE_SEED_DEMO');
  const database = databaseUrl(env.BOURSE_DATABASE_URL);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: resolve(env.BOURSE_DATA_DIR || './data'),
    clock,
    clockStartMs: env.BOURSE_CLOCK_START ? parseClockStart(env.BOURSE_CLOCK_START) : undefined,
    serverKeyHex,
    operatorToken: env.BOURSE_OPERATOR_TOKEN || undefined,
    log,
    rateLimits: parseRateLimitConfig(env.BOURSE_RATE_LIMITS),
    enforceAccountMode: flag(env.BOURSE_ENFORCE_ACCOUNT_MODE, false, 'BOURSE_ENFORCE_ACCOUNT_MODE'),
    positionMode: positionMode(env.BOURSE_POSITION_MODE),
    snapshotEvery: integer(env.BOURSE_SNAPSHOT_EVERY, 100_000, 'BOURSE_SNAPSHOT_EVERY'),
    journalRetention: parseRetention(env),
    trustProxy: flag(env.BOURSE_TRUST_PROXY, false, 'BOURSE_TRUST_PROXY'),
    seedDemo,
    demoCredentials: parseDemoCredentials(env, seedDemo),
    databaseUrl: database,
    sqliteWriter: sqliteWriter(env.BOURSE_SQLITE_WRITER),
    projection: projection(env.BOURSE_PROJECTION, database),
    projectionReadWaitMs: integer(
      env.BOURSE_PROJECTION_READ_WAIT_MS,
      DEFAULT_READ_WAIT_MS,
      'BOURSE_PROJECTION_READ_WAIT_MS',
    ),
    projectionMaxLagEntries: projectionMaxLag(env.BOURSE_PROJECTION_MAX_LAG),
    projectionGatherMs: projectionGatherMs(env.BOURSE_PROJECTION_GATHER_MS),
    httpFastPath: flag(env.BOURSE_HTTP_FAST_PATH, true, 'BOURSE_HTTP_FAST_PATH'),
    http: parseHttpLimits(env),
    market: { feeds: parseFeedConfig(env.BOURSE_FEED), liquidity: parseLiquidityConfig(env) },
    websocket: parseWsConfig(env),
    authFailures: {
      perKey: integer(
        env.BOURSE_AUTH_FAILURES_PER_KEY,
        DEFAULT_AUTH_FAILURE_LIMITS.perKey,
        'BOURSE_AUTH_FAILURES_PER_KEY',
      ),
      perIp: integer(
        env.BOURSE_AUTH_FAILURES_PER_IP,
        DEFAULT_AUTH_FAILURE_LIMITS.perIp,
        'BOURSE_AUTH_FAILURES_PER_IP',
      ),
      windowMs: DEFAULT_AUTH_FAILURE_LIMITS.windowMs,
    },
    metrics: parseMetricsSettings(env),
    convert: parseConvertSettings(env),
    cluster: parseClusterConfig(env, databaseUrl(env.BOURSE_DATABASE_URL), serverKeyHex),
  };
}
