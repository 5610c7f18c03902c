/**
 * Composition: opens the store, recovers the engine, seeds a fresh store, builds the HTTP app
 * and listens. main.ts calls it with the environment's settings; tests call it with their own.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { buildApp, clientIp, MAX_BODY_BYTES } from './api/app.ts';
import { installFastPath, type FastPath } from './api/http1/fast-path.ts';
import { attachWebSocket, type WsGateway } from './api/ws/gateway.ts';
import { failure } from './api/envelope.ts';
import { wireError } from './api/error-map.ts';
import { createLogger, type LogSink, type Logger } from './api/logger.ts';
import type { Services } from './api/services.ts';
import { allRoutes } from './api/routes/index.ts';
import { seedDemoAccount, seedInstruments } from './bootstrap.ts';
import { startMarket, type Market } from './market/index.ts';
import type { Config } from './config.ts';
import { openStore } from './persistence/open-store.ts';
import type { Clock } from './ports/clock.ts';
import { realClock, simulatedClock } from './runtime/clocks.ts';
import { recover } from './runtime/recovery.ts';
import { Sequencer } from './runtime/sequencer.ts';
import { newOperatorToken, SecretBox } from './security/secrets.ts';

export interface Credentials {
  baseUrl: string;
  uid: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
  operatorToken: string;
}

export interface RunningServer {
  url: string;
  credentials: Partial<Credentials> & { operatorToken: string };
  services: Services;
  logger: Logger;
  /** Price feeds and the liquidity provider (src/market). */
  market: Market;
  /** The WebSocket endpoints (src/api/ws). */
  websocket: WsGateway;
  /** The HTTP/1.1 fast path (src/api/http1); null when BOURSE_HTTP_FAST_PATH is off. */
  httpFastPath: FastPath | null;
  close(): Promise<void>;
}

function writePrivate(file: string, text: string): void {
  writeFileSync(file, text, { mode: 0o600 });
}

function serverKey(config: Config): Buffer {
  if (config.serverKeyHex) return Buffer.from(config.serverKeyHex, 'hex');
  const file = join(config.dataDir, 'server.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  const key = randomBytes(32);
  writePrivate(file, key.toString('hex'));
  return key;
}

/**
 * A request node:http cannot parse (bad request line, control characters, oversize headers)
 * still gets the venue envelope rather than node's bare "400 Bad Request".
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, nowMs: number): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const wire = wireError('PARAM_INVALID', 'v2', ['malformed HTTP request']);
  const text = JSON.stringify(failure(wire.code, wire.msg, nowMs));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

export async function startServer(config: Config, logSink: LogSink | null = null): Promise<RunningServer> {
  mkdirSync(config.dataDir, { recursive: true });
  const logger = createLogger(config.log === 'off' ? null : logSink);
  const onStoreError = (error: unknown) =>
    logger.error('store error', { error: error instanceof Error ? error.message : String(error) });
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteWriter: config.sqliteWriter,
    onError: onStoreError,
    retention: config.journalRetention,
  });
  if (store.kind === 'postgres') {
    // Advice only: a server that cannot say still starts (its next failure is the store's).
    const advice = await store.settingsAdvice().catch(() => []);
    for (const text of advice) logger.info('PostgreSQL setting', { advice: text });
  }
  let recovered: Awaited<ReturnType<typeof recover>>;
  try {
    recovered = await recover(store);
  } catch (error) {
    await store.close();
    throw error;
  }
  const sequencer = new Sequencer(recovered.exchange, recovered.seq, store, {
    snapshotEvery: config.snapshotEvery,
    onStoreError,
  });
  const startMs = config.clockStartMs ?? Date.now();
  const clock: Clock =
    config.clock === 'simulated'
      ? simulatedClock(() => sequencer.exchange.state.nowMs, startMs)
      : realClock();
  const box = new SecretBox(serverKey(config));
  const services: Services = { sequencer, store, clock, box, wallNow: () => Date.now() };

  const credentialsFile = join(config.dataDir, 'credentials.json');
  const stored = existsSync(credentialsFile)
    ? (JSON.parse(readFileSync(credentialsFile, 'utf8')) as Partial<Credentials>)
    : {};
  const operatorToken = config.operatorToken ?? stored.operatorToken ?? newOperatorToken();
  let credentials: Partial<Credentials> & { operatorToken: string } = { ...stored, operatorToken };
  const fresh = recovered.seq === 0;
  if (fresh) {
    await seedInstruments(sequencer, clock);
    if (config.seedDemo) credentials = { ...credentials, ...(await seedDemoAccount(sequencer, clock, box)) };
  }

  const app = buildApp({
    services,
    routes: allRoutes(services),
    logger,
    rateLimits: config.rateLimits,
    operatorToken,
    enforceAccountMode: config.enforceAccountMode,
    trustProxy: config.trustProxy,
  });
  const server: Server = createServer({ keepAlive: true }, (request, response) =>
    app.handle(request, response),
  );
  const fastPath = config.httpFastPath ? installFastPath(server, app, MAX_BODY_BYTES) : null;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, services.wallNow()),
  );
  await sequencer.drain();
  const websocket = attachWebSocket(server, {
    services,
    config: config.websocket,
    enforceAccountMode: config.enforceAccountMode,
    clientIp: (request) => clientIp(request.headers, request.socket.remoteAddress, config.trustProxy),
    onError: (error) =>
      logger.error('websocket error', { error: error instanceof Error ? error.message : String(error) }),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  credentials = { ...credentials, baseUrl: url };
  if (
    fresh ||
    !existsSync(credentialsFile) ||
    stored.operatorToken !== operatorToken ||
    stored.baseUrl !== url
  ) {
    writePrivate(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`);
  }
  const market = await startMarket(services, config.market, (message, fields) =>
    logger.info(message, fields),
  );
  logger.info('bourse started', {
    url,
    seq: recovered.seq,
    replayed: recovered.replayed,
    clock: config.clock,
    store: store.kind,
  });

  return {
    url,
    credentials,
    services,
    logger,
    market,
    websocket,
    httpFastPath: fastPath,
    async close() {
      await market.stop();
      await websocket.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fastPath?.closeAllConnections();
      });
      await sequencer.drain();
      await sequencer.snapshot();
      sequencer.stop();
      await store.close();
    },
  };
}
