/**
 * HTTP limits that keep slow clients from holding the server: node:http's head and request
 * timeouts, applied by the fast path too (fast-path.ts), and a cap on open connections.
 *
 * - `headersTimeoutMs`: from the first byte of a request to the end of its head.
 * - `requestTimeoutMs`: from the first byte of a request to the end of its body.
 * Past either, the request is answered 408 and its connection closed. Bytes arriving do not
 * extend them: only the keep-alive timer (between requests) is an inactivity timer.
 * - `maxConnections`: TCP connections open at once (WebSocket ones included); node refuses
 *   the extra ones as they are accepted, whichever layer would have served them.
 *
 * Together they bound what slow clients hold: at most `maxConnections` connections, each with
 * at most one head (16 KiB) and one body (1 MiB) in memory, for at most `requestTimeoutMs`.
 * Connections are checked every quarter of the shorter timeout (at most every 30 s, as
 * node:http's connectionsCheckingInterval), so a timeout fires up to a quarter late.
 */
import { STATUS_CODES, type Server } from 'node:http';
import { failure } from '../envelope.ts';
import { wireError } from '../error-map.ts';

export interface HttpLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 2048,
};

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new Error(`${name} must be a positive whole number`);
  return Number(value);
}

export function parseHttpLimits(env: NodeJS.ProcessEnv): HttpLimits {
  const limits: HttpLimits = {
    headersTimeoutMs: positive(
      env.BOURSE_HTTP_HEADERS_TIMEOUT_MS,
      DEFAULT_HTTP_LIMITS.headersTimeoutMs,
      'BOURSE_HTTP_HEADERS_TIMEOUT_MS',
    ),
    requestTimeoutMs: positive(
      env.BOURSE_HTTP_REQUEST_TIMEOUT_MS,
      DEFAULT_HTTP_LIMITS.requestTimeoutMs,
      'BOURSE_HTTP_REQUEST_TIMEOUT_MS',
    ),
    maxConnections: positive(
      env.BOURSE_HTTP_MAX_CONNECTIONS,
      DEFAULT_HTTP_LIMITS.maxConnections,
      'BOURSE_HTTP_MAX_CONNECTIONS',
    ),
  };
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new Error('BOURSE_HTTP_HEADERS_TIMEOUT_MS must not exceed BOURSE_HTTP_REQUEST_TIMEOUT_MS');
  }
  return limits;
}

/** How often requests in progress are checked against the timeouts. */
export function checkingIntervalMs(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const shortest = Math.min(...[headersTimeoutMs, requestTimeoutMs].filter((ms) => ms > 0), 120_000);
  return Math.max(10, Math.min(30_000, Math.floor(shortest / 4)));
}

/** node:http options that carry the limits (its own checking interval included). */
export function nodeServerOptions(limits: HttpLimits): {
  keepAlive: true;
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    keepAlive: true,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: checkingIntervalMs(limits.headersTimeoutMs, limits.requestTimeoutMs),
  };
}

/** Applies the connection cap (node refuses connections beyond it as they are accepted). */
export function capConnections(server: Server, limits: HttpLimits): void {
  server.maxConnections = limits.maxConnections;
}

/**
 * Whether a request that started at `startedMs` has outlived its timeout by `nowMs`: the head
 * timeout until its head is complete, the request timeout until it is whole (0: none).
 */
export function requestExpired(
  startedMs: number,
  headComplete: boolean,
  nowMs: number,
  server: Pick<Server, 'headersTimeout' | 'requestTimeout'>,
): boolean {
  const elapsedMs = nowMs - startedMs;
  if (!headComplete && server.headersTimeout > 0 && elapsedMs > server.headersTimeout) return true;
  return server.requestTimeout > 0 && elapsedMs > server.requestTimeout;
}

/** The bytes answering a request that timed out: 408, the venue envelope, and a close. */
export function timeoutAnswer(nowMs: number): string {
  const wire = wireError('PARAM_INVALID', 'v2', ['request not received in time']);
  const text = JSON.stringify(failure(wire.code, wire.msg, nowMs));
  return (
    `HTTP/1.1 408 ${STATUS_CODES[408] ?? ''}\r\ncontent-type: application/json\r\n` +
    `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  );
}
