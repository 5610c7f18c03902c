/**
 * The HTTP edge: routing, raw body capture, authentication, rate limits, the envelope and the
 * error mapping. It builds commands and reads; it holds no business rules. It serves an
 * `EdgeRequest` whichever HTTP/1.1 layer parsed it: node:http (`handle`) or the fast path for
 * plain keep-alive requests (src/api/http1, `serve`).
 *
 * Why not a framework: signature checks need the raw bytes as sent, the envelope and error
 * codes are the venue's rather than a framework's, and a thin router keeps the signed-request
 * path close to a bare node:http server (the benchmark's peer). See docs/architecture.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Failure } from '../domain/result-code.ts';
import { Authenticator } from './auth/authenticate.ts';
import { failure, success, type Envelope } from './envelope.ts';
import { wireError, type Dialect } from './error-map.ts';
import type { HttpMetrics } from './http-metrics.ts';
import type { Logger } from './logger.ts';
import { RateLimiter, type RateLimitConfig } from './rate-limit.ts';
import { ProjectionBehindError } from '../runtime/projected-reads.ts';
import { Rejected, type ApiRequest, type Route } from './request.ts';
import type { Services } from './services.ts';
import { constantTimeEqual } from '../security/secrets.ts';

export const MAX_BODY_BYTES = 1024 * 1024;

export interface AppOptions {
  services: Services;
  routes: Route[];
  logger: Logger;
  rateLimits: RateLimitConfig;
  operatorToken: string;
  enforceAccountMode: boolean;
  trustProxy: boolean;
  /** Shared with the WebSocket login (one passphrase cache, one set of failure limits). */
  authenticator?: Authenticator;
  /** Where each answer is recorded (src/api/http-metrics.ts); null or absent: nowhere. */
  metrics?: HttpMetrics | null;
  /** Endpoints outside the venue API: health, readiness, metrics (src/api/health-routes.ts). */
  plainEndpoints?: readonly PlainEndpoint[];
  /** Counts requests against their limits (default: a RateLimiter of `rateLimits`, in memory). */
  limiter?: Pick<RateLimiter, 'allow'>;
  /**
   * A cluster edge (src/cluster/edge-reads.ts): routes it does not answer itself are sent on,
   * once authenticated and counted, and the answer relayed as it came.
   */
  relay?: Relay;
}

/** Routes answered elsewhere (the cluster's leader), after the checks made here. */
export interface Relay {
  /** Whether `route` is answered elsewhere. */
  relays(route: Route): boolean;
  send(request: EdgeRequest, rawBody: string, caller: ApiRequest['caller']): Promise<Relayed>;
}

/** An answer made elsewhere, sent on as it came. */
export interface Relayed {
  status: number;
  text: string;
  contentType: string;
  headers?: readonly (readonly [string, string])[];
}

/**
 * A GET endpoint outside the venue API: answered with its own status, type and body (no
 * envelope), before any authentication or rate limit, and not logged.
 */
export interface PlainEndpoint {
  readonly method: 'GET';
  readonly path: string;
  answer(request: { headers: EdgeRequest['headers']; ip: string }): PlainAnswer | Promise<PlainAnswer>;
}

export interface PlainAnswer {
  status: number;
  contentType: string;
  body: string;
}

/** A parsed request, whichever HTTP layer parsed it. */
export interface EdgeRequest {
  /** Upper case. */
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  /** Lower-case names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  remoteAddress: string;
  /** The body as UTF-8 text ('' when there is none), or null when over MAX_BODY_BYTES. */
  body: string | null | Promise<string | null>;
}

/** Where the answer goes: one text (JSON unless `contentType` says) with its status, or the connection is dropped. */
export interface EdgeReply {
  send(
    status: number,
    json: string,
    contentType?: string,
    headers?: readonly (readonly [string, string])[],
  ): void;
  abort(): void;
}

export interface App {
  /** node:http's request and response. */
  handle(request: IncomingMessage, response: ServerResponse): void;
  serve(request: EdgeRequest, reply: EdgeReply): void;
}

/** The app `buildApp` makes, which also says which route a request goes to. */
export interface RoutedApp extends App {
  /** The venue or operator route `method` and `path` go to; null when none does. */
  routeOf(method: string, path: string): Route | null;
}

interface Matched {
  route: Route;
  params: Record<string, string>;
}

function compileRoutes(routes: Route[]) {
  // By path, then method: the path as sent is looked up as it is, with no key made per
  // request. A route without parameters is matched by one object made here (frozen params).
  const exact = new Map<string, Map<string, Matched>>();
  const patterns: { method: string; parts: string[]; route: Route }[] = [];
  for (const route of routes) {
    if (route.path.includes(':')) {
      patterns.push({ method: route.method, parts: route.path.split('/'), route });
      continue;
    }
    let byMethod = exact.get(route.path);
    if (!byMethod) exact.set(route.path, (byMethod = new Map()));
    // As before: a later route of the same method and path wins.
    byMethod.set(route.method, { route, params: Object.freeze({}) });
  }
  return (method: string, path: string): Matched | null => {
    const found = exact.get(path)?.get(method);
    if (found) return found;
    const parts = path.split('/');
    for (const pattern of patterns) {
      if (pattern.method !== method || pattern.parts.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const matches = pattern.parts.every((part, index) => {
        const actual = parts[index] ?? '';
        if (part.startsWith(':')) {
          const decoded = decodePathPart(actual);
          if (decoded === null) return false;
          params[part.slice(1)] = decoded;
          return actual !== '';
        }
        return part === actual;
      });
      if (matches) return { route: pattern.route, params };
    }
    return null;
  };
}

/** A path segment, percent-decoded; null when the encoding is malformed (the route then does not match). */
function decodePathPart(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export function clientIp(
  headers: EdgeRequest['headers'],
  remoteAddress: string | undefined,
  trustProxy: boolean,
): string {
  const forwarded = trustProxy ? headers['x-forwarded-for'] : undefined;
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  const address = first || remoteAddress || '';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

/** Decoded query parameters, last value wins. URLSearchParams never throws on bad input. */
function parseQuery(rawQuery: string): Record<string, string> {
  // No prototype: a parameter named __proto__ or constructor is a name like any other.
  const query: Record<string, string> = Object.create(null);
  if (!rawQuery) return query;
  for (const [name, value] of new URLSearchParams(rawQuery)) query[name] = value;
  return query;
}

/** Whether a body follows the headers (HTTP/1.1: a Content-Length or Transfer-Encoding). */
function hasBody(request: IncomingMessage): boolean {
  return (
    request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined
  );
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The client closed its connection before the whole body arrived: there is no one to answer,
 * and nothing went wrong on the server's side, so it is not an error (no 500, no error log);
 * the request line says 499, as proxies log a client that went away.
 */
export class ClientClosedRequest extends Error {
  constructor() {
    super('the client closed the connection before sending the whole body');
  }
}

/** The status the request log gives a request whose client went away before it was answered. */
export const CLIENT_CLOSED_STATUS = 499;

function readBody(request: IncomingMessage, maxBodyBytes: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks).toString('utf8')));
    // node:http ends a request whose connection closed mid-body with an 'aborted' error.
    request.on('error', () => reject(new ClientClosedRequest()));
  });
}

/** node:http's request and response as the edge's request and reply. */
export function nodeEdge(
  request: IncomingMessage,
  response: ServerResponse,
  maxBodyBytes = MAX_BODY_BYTES,
): { request: EdgeRequest; reply: EdgeReply } {
  return {
    request: {
      method: (request.method ?? 'GET').toUpperCase(),
      url: request.url ?? '/',
      headers: request.headers,
      remoteAddress: request.socket.remoteAddress ?? '',
      body: hasBody(request) ? readBody(request, maxBodyBytes) : '',
    },
    reply: {
      send(status, json, contentType = 'application/json', headers = []) {
        response.writeHead(status, {
          'content-type': contentType,
          'content-length': Buffer.byteLength(json),
          ...Object.fromEntries(headers),
        });
        response.end(json);
      },
      abort: () => response.destroy(),
    },
  };
}

export function buildApp(options: AppOptions): RoutedApp {
  const match = compileRoutes(options.routes);
  const limiter = options.limiter ?? new RateLimiter(options.rateLimits);
  const { relay } = options;
  const authenticator =
    options.authenticator ??
    new Authenticator({
      box: options.services.box,
      enforceAccountMode: options.enforceAccountMode,
      wallNow: options.services.wallNow,
    });
  const { services, logger } = options;
  const metrics = options.metrics ?? null;
  const timed = logger.enabled || metrics !== null;
  const plainEndpoints = new Map((options.plainEndpoints ?? []).map((endpoint) => [endpoint.path, endpoint]));

  async function run(
    request: EdgeRequest,
    apiRequest: ApiRequest,
    rawQuery: string,
    matched: Matched | null,
  ): Promise<Envelope | Relayed> {
    // A body already read (the fast path's always is) is not awaited: an await is a turn of
    // the microtask queue and a promise per request.
    const rawBody = typeof request.body === 'string' ? request.body : await request.body;
    if (!matched) {
      const v1 = /^\/api\/(spot|mix|margin)\/v1\//.test(apiRequest.path);
      throw new Rejected({ code: v1 ? 'API_V1_DECOMMISSIONED' : 'PATH_NOT_FOUND' });
    }
    const { route, params } = matched;
    if (rawBody === null) throw new Rejected({ code: 'BODY_TOO_LARGE', params: ['body too large'] });
    const now = services.wallNow();
    if (route.auth === 'operator') {
      const given = apiRequest.headers.authorization;
      const token = typeof given === 'string' && given.startsWith('Bearer ') ? given.slice(7) : '';
      if (!token || !constantTimeEqual(token, options.operatorToken))
        throw new Rejected({ code: 'OPERATOR_UNAUTHORIZED' });
    }
    if (
      route.auth === 'public' &&
      route.rateLimit &&
      !limiter.allow(route.path, route.rateLimit, apiRequest.ip, now)
    ) {
      throw new Rejected({ code: 'RATE_LIMITED' });
    }
    // A permission rule may read the body (v3 trade: the category). Parse it for the check; a
    // body that is not JSON stays undefined here and is refused below, after authentication.
    const hasJsonBody = rawBody !== '' && apiRequest.method !== 'GET';
    const parsedBody = hasJsonBody ? jsonOrUndefined(rawBody) : undefined;
    apiRequest.body = parsedBody;
    if (route.auth === 'signed') {
      const authenticated = authenticator.authenticate(
        services.sequencer.exchange.state,
        apiRequest,
        route,
        rawQuery,
        rawBody,
      );
      apiRequest.caller = authenticated instanceof Promise ? await authenticated : authenticated;
      const subject = route.rateLimit?.by === 'ip' ? apiRequest.ip : apiRequest.caller.account.uid;
      if (route.rateLimit && !limiter.allow(route.path, route.rateLimit, subject, now)) {
        throw new Rejected({ code: 'RATE_LIMITED' });
      }
    }
    if (hasJsonBody) {
      const contentType = apiRequest.headers['content-type'];
      if (typeof contentType === 'string' && !contentType.toLowerCase().includes('json')) {
        throw new Rejected({ code: 'CONTENT_TYPE_INVALID' });
      }
      // Parsed once above: JSON never parses to undefined, so undefined means it did not parse.
      if (parsedBody === undefined) {
        throw new Rejected({ code: 'BODY_NOT_JSON', params: ['body is not valid JSON'] });
      }
    }
    if (relay?.relays(route)) return relay.send(request, rawBody, apiRequest.caller);
    const data = await route.handler(apiRequest, params);
    return success(data, services.wallNow());
  }

  /** Serialises and sends the answer, then records and logs the request. */
  function respond(
    reply: EdgeReply,
    apiRequest: ApiRequest,
    startedMs: number,
    matched: Matched | null,
    answer: Envelope,
    answerStatus: number,
  ): void {
    let envelope = answer;
    let status = answerStatus;
    let text: string;
    try {
      text = JSON.stringify(envelope);
    } catch (error) {
      // A handler returned something JSON cannot carry (a bigint, a cycle, very deep
      // nesting): answer SYSTEM_ERROR rather than leave the request hanging.
      logger.error('response not serialisable', {
        path: apiRequest.path,
        error: error instanceof Error ? error.message : String(error),
      });
      const wire = wireError('SYSTEM_ERROR', dialectOf(apiRequest.path, match));
      envelope = failure(wire.code, wire.msg, services.wallNow());
      status = wire.http;
      text = JSON.stringify(envelope);
    }
    reply.send(status, text);
    recordAnswer(apiRequest, startedMs, matched, envelope.code, status);
  }

  /** Records and logs an answered request. */
  function recordAnswer(
    apiRequest: ApiRequest,
    startedMs: number,
    matched: Matched | null,
    code: string,
    status: number,
  ): void {
    if (!timed) return;
    const latencyMs = performance.now() - startedMs;
    metrics?.record(matched?.route ?? null, apiRequest.method, status, code, latencyMs);
    if (!logger.enabled) return;
    logger.request({
      time: new Date().toISOString(),
      ip: apiRequest.ip,
      method: apiRequest.method,
      path: apiRequest.path,
      uid: apiRequest.caller?.account.uid ?? '',
      code,
      status,
      latencyMs,
    });
  }

  function logClosed(apiRequest: ApiRequest, startedMs: number): void {
    if (!logger.enabled) return;
    logger.request({
      time: new Date().toISOString(),
      ip: apiRequest.ip,
      method: apiRequest.method,
      path: apiRequest.path,
      uid: '',
      code: '',
      status: CLIENT_CLOSED_STATUS,
      latencyMs: performance.now() - startedMs,
    });
  }

  /** The envelope and status for a request that was rejected or failed. */
  function rejection(apiRequest: ApiRequest, error: unknown): { envelope: Envelope; status: number } {
    // A history read that waited its bound for the projector: retryable, not a fault.
    if (error instanceof ProjectionBehindError)
      return rejection(apiRequest, new Rejected({ code: 'STORE_UNAVAILABLE' }));
    const rejected = error instanceof Rejected ? error : null;
    if (!rejected) {
      logger.error('unhandled error', {
        path: apiRequest.path,
        error: error instanceof Error ? error.message : String(error),
      });
    }
    const failed: Failure = rejected ? rejected.failure : { code: 'SYSTEM_ERROR' };
    const wire = wireError(failed.code, dialectOf(apiRequest.path, match), failed.params);
    return {
      envelope: failure(wire.code, wire.msg, services.wallNow(), rejected?.data ?? null),
      status: wire.http,
    };
  }

  /** Answers a plain endpoint (health, readiness, metrics) and records it; a body is ignored. */
  async function servePlain(
    endpoint: PlainEndpoint,
    request: EdgeRequest,
    reply: EdgeReply,
    startedMs: number,
  ): Promise<void> {
    await request.body;
    const ip = clientIp(request.headers, request.remoteAddress, options.trustProxy);
    const answer = await endpoint.answer({ headers: request.headers, ip });
    reply.send(answer.status, answer.body, answer.contentType);
    metrics?.record(endpoint, endpoint.method, answer.status, '', performance.now() - startedMs);
  }

  async function serve(request: EdgeRequest, reply: EdgeReply): Promise<void> {
    const startedMs = timed ? performance.now() : 0;
    const { url } = request;
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const plain = request.method === 'GET' ? plainEndpoints.get(path) : undefined;
    if (plain) return servePlain(plain, request, reply, startedMs);
    const rawQuery = queryAt < 0 ? '' : url.slice(queryAt + 1);
    const apiRequest: ApiRequest = {
      method: request.method,
      path,
      query: parseQuery(rawQuery),
      body: undefined,
      ip: clientIp(request.headers, request.remoteAddress, options.trustProxy),
      headers: request.headers,
    };
    const matched = match(apiRequest.method, path);
    // While the operator resets the venue (src/admin/reset.ts), nothing new is started.
    const gate = services.gate;
    if (gate && !gate.enter()) {
      const refused = rejection(apiRequest, new Rejected({ code: 'SERVICE_RESETTING' }));
      respond(reply, apiRequest, startedMs, matched, refused.envelope, refused.status);
      return;
    }
    try {
      let answer: { envelope: Envelope; status: number };
      try {
        const ran = await run(request, apiRequest, rawQuery, matched);
        if ('text' in ran) {
          reply.send(ran.status, ran.text, ran.contentType, ran.headers);
          if (timed) recordAnswer(apiRequest, startedMs, matched, relayedCode(ran.text), ran.status);
          return;
        }
        answer = { envelope: ran, status: 200 };
      } catch (error) {
        if (error instanceof ClientClosedRequest) {
          reply.abort();
          logClosed(apiRequest, startedMs);
          return;
        }
        answer = rejection(apiRequest, error);
      }
      respond(reply, apiRequest, startedMs, matched, answer.envelope, answer.status);
    } finally {
      gate?.leave();
    }
  }

  const app: RoutedApp = {
    routeOf: (method, path) => match(method, path)?.route ?? null,
    serve(request, reply) {
      serve(request, reply).catch((error: unknown) => {
        logger.error('response failed', { error: error instanceof Error ? error.message : String(error) });
        reply.abort();
      });
    },
    handle(request, response) {
      const edge = nodeEdge(request, response);
      app.serve(edge.request, edge.reply);
    },
  };
  return app;
}

/** The venue code of an answer relayed as text (for the request log and metrics); '' if none. */
function relayedCode(text: string): string {
  return /^\{"code":"([^"]*)"/.exec(text)?.[1] ?? '';
}

function dialectOf(path: string, match: (method: string, path: string) => Matched | null): Dialect {
  for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) {
    const found = match(method, path);
    if (found) return found.route.dialect;
  }
  return path.startsWith('/api/v3/') ? 'v3' : 'v2';
}
