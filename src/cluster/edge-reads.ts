/**
 * The venue API at an edge: the same app as a single process (src/api/app.ts, every route of
 * src/api/routes), over the edge's follower of the journal (edge-push.ts). Every request to a
 * venue route is authenticated here (keys from the followed state, sealed under
 * BOURSE_SERVER_KEY) and counted against the limits every edge shares (shared-rate-limit.ts);
 * then
 * - a read (GET) is answered here, from the follower's memory (current state) or PostgreSQL
 *   (history: a cluster engine writes its projections in the journal's transaction, so the
 *   rows are there when the write is acknowledged), once the follower has reached what the
 *   caller must see (below);
 * - a write, and the few reads that need the leader's memory (a convert quote is handed out
 *   and taken by the same process), is sent to the leader, whose answer is relayed as it came.
 *
 * Read-your-writes, through any edge: a signed read waits for a fresh round of the follower
 * (one begun after the read arrived), so everything committed before it, through any edge, is
 * applied. The wait is bounded by `readWaitMs`, past which the answer is 40725 (retryable). A
 * key the follower does not know yet (just created) also waits for a fresh round before it is
 * refused.
 *
 * The leader checks every request again (signature, key, permissions): the edge's checks keep
 * bad requests off the leader and answer them while it is away, they are not trusted. Rate
 * limits are the edges' alone (run engines behind edges with BOURSE_RATE_LIMITS=off, or their
 * own per-process limits apply on top).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type pg from 'pg';
import { buildApp, nodeEdge, type EdgeRequest, type EdgeReply, type Relayed } from '../api/app.ts';
import { Authenticator } from '../api/auth/authenticate.ts';
import { failure } from '../api/envelope.ts';
import { createLogger, type LogSink } from '../api/logger.ts';
import type { Route } from '../api/request.ts';
import { allRoutes } from '../api/routes/index.ts';
import type { Config } from '../config.ts';
import type { ClusterConfig } from './cluster-config.ts';
import type { EdgePush } from './edge-push.ts';
import { SharedRateLimiter } from './shared-rate-limit.ts';

/** Reads answered by the leader: they use state only its process holds (convert quotes). */
const LEADER_READS = new Set(['/api/v2/convert/quoted-price']);

/** Sends a request to the leader; resolves with its answer (or the edge's 40015 / 40725). */
export type SendToLeader = (request: EdgeRequest, rawBody: string) => Promise<Relayed>;

export interface EdgeReadSettings {
  push: EdgePush;
  config: Config;
  cluster: ClusterConfig;
  /** The edge's PostgreSQL pool (the shared rate limits). */
  pool: pg.Pool;
  send: SendToLeader;
  logSink: LogSink | null;
  onError: (error: unknown) => void;
}

export interface EdgeReads {
  /** Takes `request` when it is for a venue route; false when it is not (it is forwarded as it is). */
  handle(request: IncomingMessage, response: ServerResponse): boolean;
  close(): void;
}

function headerOf(headers: EdgeRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function answeredHere(route: Route): boolean {
  return route.method === 'GET' && !LEADER_READS.has(route.path);
}

/** 40725 (HTTP 503): the follower did not reach what the caller must see in time; try again. */
function behind(reply: EdgeReply): void {
  const body = failure('40725', 'service return an error', Date.now());
  reply.send(503, JSON.stringify(body), 'application/json', [['retry-after', '1']]);
}

export async function startEdgeReads(settings: EdgeReadSettings): Promise<EdgeReads> {
  const { push, config, cluster } = settings;
  const { services, rounds } = push;
  const limiter = await SharedRateLimiter.start({
    pool: settings.pool,
    cluster: cluster.name,
    config: config.rateLimits,
    syncMs: cluster.rateSyncMs,
    onError: settings.onError,
  });
  const app = buildApp({
    services,
    routes: allRoutes(services),
    logger: createLogger(config.log === 'off' ? null : settings.logSink),
    rateLimits: config.rateLimits,
    limiter,
    operatorToken: '',
    enforceAccountMode: config.enforceAccountMode,
    trustProxy: config.trustProxy,
    authenticator: new Authenticator({
      box: services.box,
      enforceAccountMode: config.enforceAccountMode,
      wallNow: services.wallNow,
      failureLimits: config.authFailures,
    }),
    relay: {
      relays: (route) => !answeredHere(route),
      send: (request, rawBody) => settings.send(request, rawBody),
    },
  });

  /**
   * Waits for what the caller must see before its request is checked and run; false: not in
   * time. A read is answered once a round of the follower begun after it arrived has ended:
   * every write acknowledged before the read, through any edge, is then applied (a commit is
   * acknowledged only once it is in the journal table). A key the follower does not know yet
   * (created a moment ago) waits for the same round before it is refused.
   */
  async function ready(route: Route, headers: EdgeRequest['headers']): Promise<boolean> {
    const apiKey = headerOf(headers, 'access-key');
    if (route.auth !== 'signed' || !apiKey) return true;
    if (services.sequencer.exchange.state.apiKeys.has(apiKey) && !answeredHere(route)) return true;
    return rounds.fresh(cluster.readWaitMs);
  }

  return {
    handle(request, response) {
      const method = (request.method ?? 'GET').toUpperCase();
      const url = request.url ?? '/';
      const queryAt = url.indexOf('?');
      const route = app.routeOf(method, queryAt < 0 ? url : url.slice(0, queryAt));
      // The operator API runs on the leader (the market, the reset): forwarded as it is.
      if (!route || route.auth === 'operator') return false;
      const edge = nodeEdge(request, response);
      ready(route, request.headers).then(
        (inTime) => (inTime ? app.serve(edge.request, edge.reply) : behind(edge.reply)),
        (error: unknown) => {
          settings.onError(error);
          behind(edge.reply);
        },
      );
      return true;
    },
    close() {
      limiter.stop();
    },
  };
}
