/**
 * A second HTTP edge over a running test server's services, with extra routes: for edge
 * behaviour no production route exercises yet (a permission-gated route, a signed POST).
 * It uses the production `buildApp`, so what it tests is the production edge.
 */
import { createServer } from 'node:http';
import { buildApp, type Relay } from '../../src/api/app.ts';
import { closeServer, listenOnLoopback } from './http.ts';
import { createLogger } from '../../src/api/logger.ts';
import type { Route } from '../../src/api/request.ts';
import { caller } from '../../src/api/request.ts';
import { allRoutes } from '../../src/api/routes/index.ts';
import type { RateLimitConfig } from '../../src/api/rate-limit.ts';
import type { TestServer } from './server.ts';
import { TEST_OPERATOR_TOKEN } from './server.ts';

export interface ExtraApp {
  url: string;
  logs: string[];
  close(): Promise<void>;
}

/** Echoes the caller's uid and the parsed body; needs spot write permission. */
export const SPOT_WRITE_ECHO: Route = {
  method: 'POST',
  path: '/api/v2/test/spot-write',
  auth: 'signed',
  dialect: 'v2-spot',
  permission: { area: 'spot', write: true },
  handler: (request) => ({ uid: caller(request).account.uid, body: request.body ?? null }),
};

/** Needs futures-order read permission (a read-only code is enough). */
export const FUTURES_READ_ECHO: Route = {
  method: 'GET',
  path: '/api/v2/test/futures-read',
  auth: 'signed',
  dialect: 'v2-mix',
  permission: { area: 'futures_orders', write: false },
  handler: (request) => ({ uid: caller(request).account.uid, query: request.query }),
};

export async function startExtraApp(
  server: TestServer,
  routes: Route[],
  options: {
    trustProxy?: boolean;
    rateLimits?: RateLimitConfig;
    enforceAccountMode?: boolean;
    relay?: Relay;
  } = {},
): Promise<ExtraApp> {
  const logs: string[] = [];
  const app = buildApp({
    services: server.services,
    routes: [...allRoutes(server.services), ...routes],
    logger: createLogger((line) => logs.push(line)),
    rateLimits: options.rateLimits ?? { enabled: false, scale: 1, overrides: {} },
    operatorToken: TEST_OPERATOR_TOKEN,
    enforceAccountMode: options.enforceAccountMode ?? false,
    trustProxy: options.trustProxy ?? false,
    ...(options.relay ? { relay: options.relay } : {}),
  });
  const http = createServer({ keepAlive: true }, (request, response) => app.handle(request, response));
  const port = await listenOnLoopback(http);
  return { url: `http://127.0.0.1:${port}`, logs, close: () => closeServer(http) };
}
