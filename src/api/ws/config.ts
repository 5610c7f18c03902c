/**
 * WebSocket settings (docs/websocket.md): the venue's limits by default. Parsed from the
 * environment by src/config.ts; a bad value stops the server with a message naming the variable.
 */
export interface WsConfig {
  /** A connection that sends nothing (not even "ping") for this long is closed; venue: 2 min. */
  idleMs: number;
  /** Inbound messages ("ping", login, subscribe…) per second per connection; venue: 10. */
  messagesPerSecond: number;
  /** Channel subscriptions per connection; venue: 1000. */
  maxSubscriptions: number;
  /** Bytes queued for one connection before it is cut as a slow consumer. */
  maxBufferedBytes: number;
  /** Args in one subscribe or unsubscribe message (limits.ts). */
  maxArgsPerMessage: number;
  /** Subscribe and unsubscribe args per connection per hour; venue: 240. */
  subscriptionRequestsPerHour: number;
  /** Open connections per client IP; venue: 100. */
  maxConnectionsPerIp: number;
  /** Open WebSocket connections in all. */
  maxConnections: number;
}

export const DEFAULT_WS_CONFIG: WsConfig = {
  idleMs: 120_000,
  messagesPerSecond: 10,
  maxSubscriptions: 1000,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxArgsPerMessage: 50,
  subscriptionRequestsPerHour: 240,
  maxConnectionsPerIp: 100,
  maxConnections: 1000,
};

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) <= 0) throw new Error(`${name} must be a positive whole number`);
  return Number(value);
}

export function parseWsConfig(env: NodeJS.ProcessEnv): WsConfig {
  return {
    idleMs: positive(env.BOURSE_WS_IDLE_MS, DEFAULT_WS_CONFIG.idleMs, 'BOURSE_WS_IDLE_MS'),
    messagesPerSecond: positive(
      env.BOURSE_WS_MESSAGES_PER_SECOND,
      DEFAULT_WS_CONFIG.messagesPerSecond,
      'BOURSE_WS_MESSAGES_PER_SECOND',
    ),
    maxSubscriptions: positive(
      env.BOURSE_WS_MAX_SUBSCRIPTIONS,
      DEFAULT_WS_CONFIG.maxSubscriptions,
      'BOURSE_WS_MAX_SUBSCRIPTIONS',
    ),
    maxBufferedBytes: positive(
      env.BOURSE_WS_MAX_BUFFERED_BYTES,
      DEFAULT_WS_CONFIG.maxBufferedBytes,
      'BOURSE_WS_MAX_BUFFERED_BYTES',
    ),
    maxArgsPerMessage: positive(
      env.BOURSE_WS_MAX_ARGS_PER_MESSAGE,
      DEFAULT_WS_CONFIG.maxArgsPerMessage,
      'BOURSE_WS_MAX_ARGS_PER_MESSAGE',
    ),
    subscriptionRequestsPerHour: positive(
      env.BOURSE_WS_SUBSCRIPTION_REQUESTS_PER_HOUR,
      DEFAULT_WS_CONFIG.subscriptionRequestsPerHour,
      'BOURSE_WS_SUBSCRIPTION_REQUESTS_PER_HOUR',
    ),
    maxConnectionsPerIp: positive(
      env.BOURSE_WS_MAX_CONNECTIONS_PER_IP,
      DEFAULT_WS_CONFIG.maxConnectionsPerIp,
      'BOURSE_WS_MAX_CONNECTIONS_PER_IP',
    ),
    maxConnections: positive(
      env.BOURSE_WS_MAX_CONNECTIONS,
      DEFAULT_WS_CONFIG.maxConnections,
      'BOURSE_WS_MAX_CONNECTIONS',
    ),
  };
}
