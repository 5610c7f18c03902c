/**
 * Composition: takes the data directory, binds the port, opens and recovers the store,
 * checks the server key, seeds a fresh store, builds the HTTP app and opens the port to it.
 * main.ts calls it with the environment's settings; tests call it with their own.
 *
 * Start order, so that a start that fails leaves nothing half-made: settings that can be
 * checked alone (BOURSE_RATE_LIMITS paths), the data directory (created 0700, writable),
 * its lock (one server per directory), the port (bound before anything is made: a port clash
 * on a first start used to leave a seeded store without its credentials.json), the database
 * lock (PostgreSQL), the store, recovery, the server key against the store's secrets, then
 * seeding and credentials.json together, and only then requests. Whatever was taken is
 * released, in reverse, when a later step fails.
 */
import type { Logger, LogSink } from './api/logger.ts';
import { createLogger, redactedJson } from './api/logger.ts';
import { buildApp, clientIp } from './api/app.ts';
import { Authenticator } from './api/auth/authenticate.ts';
import type { FastPath } from './api/http1/fast-path.ts';
import { checkRateLimitPaths } from './api/rate-limit.ts';
import { operationsEndpoints, Readiness } from './api/health-routes.ts';
import { countConnections } from './api/connection-count.ts';
import { createMetrics, type Metrics } from './api/metrics.ts';
import { allRoutes } from './api/routes/index.ts';
import type { Services } from './api/services.ts';
import { attachWebSocket, type WsGateway } from './api/ws/gateway.ts';
import { firstStartOf } from './bootstrap.ts';
import { VenueControl } from './admin/reset.ts';
import { EngineRole, type Leading } from './cluster/engine-role.ts';
import { RequestGate } from './api/request-gate.ts';
import type { Config } from './config.ts';
import { startMarket, type Market } from './market/index.ts';
import { openStore, sqliteFileOf } from './persistence/open-store.ts';
import { lockPostgresDatabase } from './persistence/postgres/database-lock.ts';
import { describeUrl } from './persistence/postgres/postgres-store.ts';
import type { Clock } from './ports/clock.ts';
import type { JournalEntry, Store } from './ports/store.ts';
import { realClock, simulatedClock } from './runtime/clocks.ts';
import { lockDataDir } from './runtime/data-dir-lock.ts';
import { projectedReads } from './runtime/projected-reads.ts';
import { Projector } from './runtime/projector.ts';
import { recover, type RecoveryProgress } from './runtime/recovery.ts';
import { Sequencer } from './runtime/sequencer.ts';
import { SecretBox } from './security/secrets.ts';
import {
  settleCredentials,
  type DemoKey,
  type SettledCredentials,
  type StoredCredentials,
} from './startup/credentials.ts';
import { seedFirstStartAtomically } from './startup/first-start.ts';
import { checkDataFilesWritable, prepareDataDir } from './startup/data-dir.ts';
import { bindHttp, type BoundHttp } from './startup/http-server.ts';
import { rateLimitedPaths } from './startup/route-paths.ts';
import { checkServerKey, loadServerKey, saveNewServerKey, type ServerKey } from './startup/server-key.ts';
import { shutdown, type ShutdownReport } from './startup/shutdown.ts';

export type { Credentials } from './startup/credentials.ts';
export type { ShutdownReport } from './startup/shutdown.ts';

/** What the start did, for the banner main.ts prints. */
export interface StartupReport {
  /** The store, as an operator names it: `SQLite /data/bourse.db` or `PostgreSQL host:5432/db`. */
  store: string;
  seq: number;
  snapshotSeq: number;
  replayed: number;
  recoveryMs: number;
  credentialsFile: string;
  /** Secrets made at this start (printed once, then only in credentials.json). */
  created: SettledCredentials['created'];
  operatorTokenFrom: SettledCredentials['operatorTokenFrom'];
  /** BOURSE_ROLE=engine: the lease this engine leads under (docs/cluster.md); null for the single process. */
  cluster: Leading | null;
}

export interface RunningServer {
  url: string;
  credentials: StoredCredentials;
  startup: StartupReport;
  services: Services;
  logger: Logger;
  /** Price feeds and the liquidity provider (src/market). */
  market: Market;
  /** The WebSocket endpoints (src/api/ws). */
  websocket: WsGateway;
  /** The HTTP/1.1 fast path (src/api/http1); null when BOURSE_HTTP_FAST_PATH is off. */
  httpFastPath: FastPath | null;
  /** Stops cleanly (startup/shutdown.ts); idempotent. */
  shutdown(): Promise<ShutdownReport>;
  close(): Promise<void>;
}

export interface StartOptions {
  /** Aborted while recovering: the start stops and releases what it took (Ctrl-C during a long replay). */
  signal?: AbortSignal;
  /** A cluster leader lost its lease (its appends are refused from then on); default: it stops. */
  onLeaseLost?: (why: string) => void;
}

/** What a start has taken so far, released in reverse if a later step fails. */
type Release = () => unknown;

function describeStore(config: Config): string {
  return config.databaseUrl
    ? `PostgreSQL ${describeUrl(config.databaseUrl)}`
    : `SQLite ${sqliteFileOf(config.dataDir)}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export async function startServer(
  config: Config,
  logSink: LogSink | null = null,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = createLogger(config.log === 'off' ? null : logSink);
  checkRateLimitPaths(config.rateLimits, rateLimitedPaths());
  prepareDataDir(config.dataDir);
  checkDataFilesWritable(config.dataDir);
  const taken: Release[] = [];
  try {
    return await start(config, logger, options, taken);
  } catch (error) {
    for (const release of taken.reverse()) await Promise.resolve(release()).catch(() => undefined);
    throw error;
  }
}

async function openRecovered(
  config: Config,
  logger: Logger,
  signal: AbortSignal | undefined,
  taken: Release[],
  role: EngineRole | null,
) {
  const onStoreError = (error: unknown) => logger.error('store error', { error: errorText(error) });
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteWriter: config.sqliteWriter,
    onError: onStoreError,
    retention: config.journalRetention,
    ...(role ? { fence: role.fence } : {}),
  });
  taken.push(() => store.close());
  if (store.kind === 'postgres') {
    // Advice only: a server that cannot say still starts (its next failure is the store's).
    const advice = await store.settingsAdvice().catch(() => []);
    for (const text of advice) logger.info('PostgreSQL setting', { advice: text });
  }
  let recoveryMs = 0;
  // A cluster engine stands by, following the journal, until it leads (src/cluster). It writes
  // projections with the journal (inline), so the fence that refuses a deposed leader's
  // appends covers its rows too; what an earlier leader left unprojected is written first.
  const startedMs = performance.now();
  if (role && store.kind === 'postgres') {
    const led = await role.lead(store, signal);
    const projectedAt = store.projectedSeq ? await store.projectedSeq() : led.seq;
    const recovered =
      projectedAt < led.seq ? await recover(store, { signal, eventsAfter: projectedAt }) : led;
    const inline = { ...config, projection: 'inline' as const };
    await openProjector(inline, store, projectedAt, recovered.unprojected, onStoreError);
    return { store, recovered, recoveryMs: performance.now() - startedMs, onStoreError, projector: null };
  }
  // Entries the projector had not written at the last stop are run with their events.
  const projectedSeq = store.projectedSeq ? await store.projectedSeq() : undefined;
  const recovered = await recover(store, {
    signal,
    ...(projectedSeq === undefined ? {} : { eventsAfter: projectedSeq }),
    onProgress(progress) {
      recoveryMs = progress.elapsedMs;
      logRecovery(logger, progress);
    },
  });
  const projector = await openProjector(config, store, projectedSeq, recovered.unprojected, onStoreError);
  if (projector) taken.push(() => projector.stop());
  return { store, recovered, recoveryMs, onStoreError, projector };
}

/**
 * The projector (runtime/projector.ts), given what recovery found unprojected: it catches up
 * in the background when projections are written behind (the default), and before the start
 * goes on when they are written with the journal (BOURSE_PROJECTION=inline, then null).
 */
async function openProjector(
  config: Config,
  store: Store,
  projectedSeq: number | undefined,
  unprojected: JournalEntry[],
  onError: (error: unknown) => void,
): Promise<Projector | null> {
  if (projectedSeq === undefined || !store.project) return null;
  const projector = new Projector(
    {
      project: store.project.bind(store),
      ...(store.projectedSeq ? { projectedSeq: store.projectedSeq.bind(store) } : {}),
      ...(store.stage ? { stage: store.stage.bind(store) } : {}),
      ...(store.projectStaged ? { projectStaged: store.projectStaged.bind(store) } : {}),
    },
    projectedSeq,
    {
      onError,
      // Rows staged in the store's writer and lost with it are staged again from the journal.
      reload: async (afterSeq) => (await recover(store, { eventsAfter: afterSeq })).unprojected,
      maxLagEntries: config.projectionMaxLagEntries,
      gatherMs: config.projectionGatherMs,
      ...(store.projectBatchEntries ? { maxBatchEntries: store.projectBatchEntries } : {}),
    },
  );
  projector.enqueue(unprojected);
  if (config.projection === 'behind' && store.appendJournal) return projector;
  await projector.idle();
  projector.stop();
  return null;
}

function logRecovery(logger: Logger, progress: RecoveryProgress): void {
  const fields = {
    replayed: progress.replayed,
    total: progress.total,
    snapshotSeq: progress.snapshotSeq,
    entriesPerSecond: Math.round(progress.entriesPerSecond),
    elapsedMs: Math.round(progress.elapsedMs),
  };
  if (progress.phase === 'start') {
    if (progress.total > 0) logger.info('recovering the store', fields);
  } else if (progress.phase === 'replaying') {
    logger.info('recovering the store', { ...fields, remainingMs: Math.round(progress.remainingMs ?? 0) });
  } else {
    logger.info('store recovered', fields);
  }
}

/** The server key, checked against the secrets the store holds, and the services on it. */
function keyedServices(
  config: Config,
  serverKey: ServerKey,
  opened: Awaited<ReturnType<typeof openRecovered>>,
  logger: Logger,
  metrics: Metrics | null,
): Services {
  const { store, recovered, onStoreError, projector } = opened;
  const box = new SecretBox(serverKey.key);
  const apiKeys = recovered.exchange.state.apiKeys.values();
  const { unopened } = checkServerKey(box, apiKeys, serverKey, describeStore(config));
  if (unopened > 0)
    logger.error('API keys sealed under another server key cannot be used', { count: unopened });
  saveNewServerKey(serverKey);
  // History reads wait for the projector to pass what was acknowledged (read-your-writes).
  // The sequencer writes through the same object, so a write patched on services.store (tests'
  // fault injection) is the one it uses.
  const served = projector
    ? projectedReads(store, projector, () => projector.lastQueued, config.projectionReadWaitMs)
    : store;
  const sequencer = new Sequencer(recovered.exchange, recovered.seq, served, {
    snapshotEvery: config.snapshotEvery,
    onStoreError,
    onEngineError: (error, command) =>
      logger.error('engine error, step rolled back', {
        command: redactedJson(command),
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
    ...(metrics ? { onAppended: metrics.journalAppended } : {}),
    ...(projector ? { projector } : {}),
  });
  const startMs = config.clockStartMs ?? Date.now();
  const clock: Clock =
    config.clock === 'simulated'
      ? simulatedClock(() => sequencer.exchange.state.nowMs, startMs)
      : realClock();
  return {
    sequencer,
    store: served,
    clock,
    box,
    wallNow: () => Date.now(),
    newAccountPositionMode: config.positionMode,
    gate: new RequestGate(),
    convert: config.convert,
  };
}

/** First start: instruments and the demo account, then credentials.json, as one step. */
async function seedAndSettle(config: Config, services: Services, fresh: boolean, baseUrl: string) {
  const { sequencer, clock, box } = services;
  const settle = (demo: DemoKey | null) =>
    settleCredentials({
      dataDir: config.dataDir,
      operatorTokenFromEnv: config.operatorToken,
      baseUrl,
      freshStore: fresh,
      seedDemo: demo ? () => Promise.resolve(demo) : null,
    });
  if (!fresh) return settle(null);
  const demo = config.seedDemo
    ? { positionMode: config.positionMode, credentials: config.demoCredentials }
    : null;
  const seed = { sequencer, clock, clockStartMs: config.clockStartMs ?? Date.now(), box, demo };
  return seedFirstStartAtomically(seed, settle);
}

/** The app, the market and the WebSocket endpoints; the gate then lets requests in. */
async function openToRequests(
  config: Config,
  services: Services,
  http: BoundHttp,
  logger: Logger,
  operatorToken: string,
  taken: Release[],
  operations: { metrics: Metrics | null; readiness: Readiness },
) {
  const { metrics, readiness } = operations;
  // One for REST and the WebSocket login: one passphrase cache, one set of failure limits.
  const authenticator = new Authenticator({
    box: services.box,
    enforceAccountMode: config.enforceAccountMode,
    wallNow: services.wallNow,
    failureLimits: config.authFailures,
  });
  const app = buildApp({
    authenticator,
    services,
    routes: allRoutes(services),
    logger,
    rateLimits: config.rateLimits,
    operatorToken,
    enforceAccountMode: config.enforceAccountMode,
    trustProxy: config.trustProxy,
    metrics: metrics?.http ?? null,
    plainEndpoints: operationsEndpoints({ readiness, metrics, metricsToken: config.metrics.token }),
    // A cluster engine tells edges the journal sequence each answer was given at: an edge
    // waits for its follower to reach it before it reads for the same key (read-your-writes).
  });
  const restartMarket = async () => {
    const started = await startMarket(services, config.market, (message, fields) =>
      logger.info(message, fields),
    );
    services.timeWalker = started;
    services.market = started;
    return started;
  };
  const market = await restartMarket();
  taken.push(() => market.stop());
  const websocket = http.open(app, () =>
    attachWebSocket(http.server, {
      services,
      config: config.websocket,
      enforceAccountMode: config.enforceAccountMode,
      authenticator,
      clientIp: (request) => clientIp(request.headers, request.socket.remoteAddress, config.trustProxy),
      onError: (error) => logger.error('websocket error', { error: errorText(error) }),
    }),
  );
  const projector = services.sequencer.projection;
  metrics?.watch({
    sequencer: services.sequencer,
    store: services.store,
    websocket,
    http: countConnections(http.server),
    ...(projector ? { projector } : {}),
  });
  return { market, websocket, restartMarket };
}

/** The data directory's lock, the server key (not yet checked), the port and the database's lock. */
async function takeHold(config: Config, logger: Logger, taken: Release[]) {
  const dataDirLock = lockDataDir(config.dataDir);
  taken.push(() => dataDirLock.release());
  const serverKey = loadServerKey(config.dataDir, config.serverKeyHex);
  const http = await bindHttp(config, () => Date.now());
  taken.push(() => http.close());
  const onLockError = (error: unknown) => logger.error('database lock', { error: errorText(error) });
  // A cluster's engines share the database: the lease (src/cluster/lease.ts) keeps one writer.
  const role =
    config.cluster?.role === 'engine' && config.databaseUrl
      ? await EngineRole.open(config.cluster, config.databaseUrl, http.url, (message, fields) =>
          logger.info(message, fields),
        )
      : null;
  const databaseLock = role
    ? role
    : config.databaseUrl
      ? await lockPostgresDatabase(config.databaseUrl, { onError: onLockError })
      : null;
  if (databaseLock) taken.push(() => databaseLock.release());
  return { dataDirLock, serverKey, http, databaseLock, role };
}

async function start(
  config: Config,
  logger: Logger,
  options: StartOptions,
  taken: Release[],
): Promise<RunningServer> {
  const { dataDirLock, serverKey, http, databaseLock, role } = await takeHold(config, logger, taken);
  const opened = await openRecovered(config, logger, options.signal, taken, role);
  const { store, recovered } = opened;
  const metrics = config.metrics.enabled ? createMetrics() : null;
  const services = keyedServices(config, serverKey, opened, logger, metrics);
  const { sequencer } = services;
  role?.publishFrom(sequencer);
  const readiness = new Readiness({ sequencer, store, ...(services.gate ? { gate: services.gate } : {}) });
  taken.push(async () => {
    await sequencer.drain();
    sequencer.stop();
  });
  options.signal?.throwIfAborted();
  // From here to credentials.json the start runs to its end: a signal waits for it (main.ts).
  const settled = await seedAndSettle(config, services, recovered.seq === 0, http.url);
  const startup: StartupReport = {
    store: describeStore(config),
    seq: sequencer.lastSeq,
    snapshotSeq: recovered.snapshotSeq,
    replayed: recovered.replayed,
    recoveryMs: opened.recoveryMs,
    credentialsFile: settled.file,
    created: settled.created,
    operatorTokenFrom: settled.operatorTokenFrom,
    cluster: role?.leading ?? null,
  };
  const { operatorToken } = settled.credentials;
  const { market, websocket, restartMarket } = await openToRequests(
    config,
    services,
    http,
    logger,
    operatorToken,
    taken,
    { metrics, readiness },
  );
  // The operator's reset (src/admin/reset.ts) restarts the market and rewrites the credentials.
  const control = new VenueControl({
    services,
    gate: services.gate as RequestGate,
    websocket,
    market,
    startMarket: restartMarket,
    firstStart: firstStartOf(config),
    clockStartMs: config.clockStartMs,
    credentialsFile: settled.file,
    credentials: settled.credentials,
    log: (message, fields) => logger.info(message, fields),
  });
  services.reset = () => control.reset();
  logger.info('bourse started', {
    url: http.url,
    seq: recovered.seq,
    replayed: recovered.replayed,
    clock: config.clock,
    store: store.kind,
  });
  readiness.started();
  const parts = {
    ...http,
    market: { stop: () => control.stop() },
    websocket,
    sequencer,
    store,
    databaseLock,
    dataDirLock,
  };
  let stopping: Promise<ShutdownReport> | null = null;
  const stop = () => {
    readiness.stopping();
    return shutdown(parts);
  };
  role?.whenLost((why) => {
    logger.error('cluster lease lost: this engine no longer leads', { why });
    if (options.onLeaseLost) options.onLeaseLost(why);
    else void (stopping ??= stop());
  });
  return {
    url: http.url,
    get credentials() {
      return control.credentials;
    },
    startup,
    services,
    logger,
    get market() {
      return control.market;
    },
    websocket,
    httpFastPath: http.fastPath,
    shutdown: () => (stopping ??= stop()),
    async close() {
      await (stopping ??= stop());
    },
  };
}
