/**
 * The WebSocket endpoints on the HTTP server's port: /v2/ws/public, /v2/ws/private,
 * /v3/ws/public, /v3/ws/private (any other upgrade gets a 404). The path's version picks the
 * dialect; public and private paths serve the same channels, because the bitget-api SDK's
 * `wsUrl` option replaces every URL with one (docs/websocket.md). Private channels need a
 * login on the connection.
 *
 * Protocol: text "ping" → "pong"; {"op":"login"|"subscribe"|"unsubscribe","args":[…]}.
 * Subscribe acks {"event":"subscribe","arg":<as sent>}; errors
 * {"event":"error","arg"?,"code":300xx,"msg"}. Inbound messages over the per-second limit get
 * 30006 and are dropped; three times over closes the connection (30007). Subscriptions over
 * the per-connection limit get 30006. Connections per IP and in all, args per message,
 * subscription requests per hour and nesting are bounded (limits.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData } from 'ws';
import { Authenticator } from '../auth/authenticate.ts';
import type { Services } from '../services.ts';
import { isWsError, parseChannel, type Dialect } from './channels.ts';
import { WS_CODES, type WsError } from './codes.ts';
import type { WsConfig } from './config.ts';
import {
  CLOSE_LOGIN_FAILED,
  CLOSE_SESSION_ENDED,
  CLOSE_SHUTDOWN,
  CLOSE_TOO_MANY_REQUESTS,
  Connection,
} from './connection.ts';
import { Hub } from './hub.ts';
import { ConnectionLimits, jsonNestingExceeds, MAX_JSON_NESTING, SubscriptionBudget } from './limits.ts';
import { verifyLogin } from './login.ts';
import { keyReads, permissionError, Sessions } from './sessions.ts';

export const WS_PATHS: Record<string, Dialect> = {
  '/v2/ws/public': 'v2',
  '/v2/ws/private': 'v2',
  '/v3/ws/public': 'v3',
  '/v3/ws/private': 'v3',
};

/** Largest inbound frame (the venue caps a subscribe message at 4096 bytes). */
const MAX_INBOUND_BYTES = 64 * 1024;

export interface WsGatewayOptions {
  services: Services;
  config: WsConfig;
  enforceAccountMode: boolean;
  clientIp: (request: IncomingMessage) => string;
  onError: (error: unknown) => void;
  /** The REST edge's, so both share one passphrase cache and one set of failure limits. */
  authenticator?: Authenticator;
}

export interface WsGateway {
  hub: Hub;
  readonly connectionCount: number;
  /** Closes every connection with `code` and `reason` (the operator's reset); returns how many. */
  disconnectAll(code: number, reason: string): number;
  close(): Promise<void>;
}

export function attachWebSocket(server: Server, options: WsGatewayOptions): WsGateway {
  const { services, config } = options;
  const stateNow = () => services.sequencer.exchange.state;
  const sessions = new Sessions({
    end(connection, failure) {
      error(connection, failure);
      connection.cut(CLOSE_SESSION_ENDED, failure.msg);
    },
    narrow(connection, key) {
      connection.key = key;
      for (const [subscription, { channel }] of connection.subscriptions) {
        if (!channel.private || keyReads(key.permissions, channel)) continue;
        hub.unsubscribe(connection, subscription);
        error(connection, permissionError(channel), channel.arg);
      }
    },
  });
  // Registered before the hub's listener: a batch that changed a key or an account is
  // reviewed before its pushes go out.
  const unlistenSessions = services.sequencer.onDurable(() => sessions.review(stateNow()));
  const hub = new Hub(services, options.onError);
  const authenticator =
    options.authenticator ??
    new Authenticator({
      box: services.box,
      enforceAccountMode: options.enforceAccountMode,
      wallNow: services.wallNow,
    });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_INBOUND_BYTES });
  const connections = new Set<Connection>();
  const limits = new ConnectionLimits(config);
  const budgets = new WeakMap<Connection, SubscriptionBudget>();

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (services.gate && !services.gate.isOpen) {
      // The operator is resetting the venue: no connection may start on the state being replaced.
      socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const url = request.url ?? '/';
    const path = url.split('?')[0] ?? '/';
    const dialect = Object.hasOwn(WS_PATHS, path) ? WS_PATHS[path] : undefined;
    if (!dialect) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const ip = options.clientIp(request);
    if (!limits.take(ip)) {
      socket.end('HTTP/1.1 429 Too Many Requests\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    // The raw socket closes however the connection ends (handshake refused, closed, cut).
    socket.once('close', () => limits.release(ip));
    wss.handleUpgrade(request, socket, head, (socketWs) => {
      const connection = new Connection(socketWs, dialect, ip, config);
      connections.add(connection);
      socketWs.on('message', (data, isBinary) => {
        void handleMessage(connection, data, isBinary).catch(options.onError);
      });
      socketWs.on('close', () => {
        connection.closed = true;
        connection.stopTimers();
        connections.delete(connection);
        if (connection.key) sessions.remove(connection, connection.key.apiKey);
        hub.removeConnection(connection);
      });
      socketWs.on('error', () => socketWs.terminate());
    });
  };
  server.on('upgrade', onUpgrade);

  const error = (connection: Connection, failure: WsError, arg?: unknown) =>
    connection.sendJson({
      event: 'error',
      ...(arg === undefined ? {} : { arg }),
      code: failure.code,
      msg: failure.msg,
    });

  async function handleMessage(connection: Connection, data: RawData, isBinary: boolean): Promise<void> {
    if (connection.closed) return;
    connection.touch();
    if (!connection.admit(services.wallNow())) {
      if (connection.abusive()) {
        error(connection, { code: WS_CODES.REQUEST_OVER_LIMIT, msg: 'request over limit,connection close' });
        connection.cut(CLOSE_TOO_MANY_REQUESTS, 'request over limit');
      } else error(connection, { code: WS_CODES.TOO_MANY_REQUESTS, msg: 'Request too many' });
      return;
    }
    const text = isBinary ? '' : data.toString();
    if (text === 'ping') {
      connection.send('pong');
      return;
    }
    if (jsonNestingExceeds(text, MAX_JSON_NESTING)) {
      error(connection, {
        code: WS_CODES.PARAM_ERROR,
        msg: `Param error: nested deeper than ${MAX_JSON_NESTING}`,
      });
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      error(connection, { code: WS_CODES.ILLEGAL_REQUEST, msg: 'illegal request' });
      return;
    }
    const { op, args } = (typeof message === 'object' && message !== null ? message : {}) as {
      op?: unknown;
      args?: unknown;
    };
    if (op === 'login') return login(connection, args);
    if (op === 'subscribe' || op === 'unsubscribe') {
      if (!Array.isArray(args) || args.length === 0) {
        error(connection, { code: WS_CODES.PARAM_ERROR, msg: 'Param error: args' });
        return;
      }
      if (!admitArgs(connection, args.length)) return;
      for (const arg of args as unknown[]) {
        if (op === 'subscribe') subscribe(connection, arg);
        else unsubscribe(connection, arg);
      }
      return;
    }
    error(connection, { code: WS_CODES.INVALID_OP, msg: `invalid op: ${String(op)}` });
  }

  /** One error for a message over the args limit or the connection's hourly budget. */
  function admitArgs(connection: Connection, count: number): boolean {
    if (count > config.maxArgsPerMessage) {
      error(connection, {
        code: WS_CODES.PARAM_ERROR,
        msg: `Param error: at most ${config.maxArgsPerMessage} args in one message`,
      });
      return false;
    }
    const nowMs = services.wallNow();
    let budget = budgets.get(connection);
    if (!budget)
      budgets.set(connection, (budget = new SubscriptionBudget(config.subscriptionRequestsPerHour, nowMs)));
    if (budget.spend(count, nowMs)) return true;
    error(connection, {
      code: WS_CODES.TOO_MANY_REQUESTS,
      msg: `Request too many: more than ${config.subscriptionRequestsPerHour} subscription requests in an hour`,
    });
    return false;
  }

  async function login(connection: Connection, args: unknown): Promise<void> {
    const result = await verifyLogin(stateNow, authenticator, args, connection.ip, services.wallNow());
    if (connection.closed) return;
    if ('code' in result) {
      error(connection, result);
      connection.cut(CLOSE_LOGIN_FAILED, 'login failed');
      return;
    }
    if (connection.uid !== null && connection.uid !== result.account.uid) {
      for (const [key, sub] of connection.subscriptions)
        if (sub.channel.private) hub.unsubscribe(connection, key);
    }
    if (connection.key) sessions.remove(connection, connection.key.apiKey);
    connection.account = result.account;
    connection.key = result.key;
    sessions.add(connection, result.key);
    connection.sendJson({ event: 'login', code: 0, msg: '' });
  }

  function subscribe(connection: Connection, arg: unknown): void {
    const channel = parseChannel(services.sequencer.exchange.state, connection.dialect, arg);
    if (isWsError(channel)) return void error(connection, channel, arg);
    if (channel.private) {
      if (!connection.key || !connection.uid)
        return void error(connection, { code: WS_CODES.NOT_LOGGED_IN, msg: 'User not logged in' }, arg);
      if (!keyReads(connection.key.permissions, channel))
        return void error(connection, permissionError(channel), arg);
    }
    if (
      !connection.subscriptions.has(channel.key) &&
      connection.subscriptions.size >= config.maxSubscriptions
    )
      return void error(
        connection,
        { code: WS_CODES.TOO_MANY_REQUESTS, msg: `more than ${config.maxSubscriptions} subscriptions` },
        arg,
      );
    connection.sendJson({ event: 'subscribe', arg });
    hub.subscribe(connection, channel);
  }

  function unsubscribe(connection: Connection, arg: unknown): void {
    const channel = parseChannel(services.sequencer.exchange.state, connection.dialect, arg);
    if (isWsError(channel)) return void error(connection, channel, arg);
    hub.unsubscribe(connection, channel.key);
    connection.sendJson({ event: 'unsubscribe', arg });
  }

  return {
    hub,
    get connectionCount() {
      return connections.size;
    },
    disconnectAll(code, reason) {
      const count = connections.size;
      for (const connection of connections) connection.cut(code, reason);
      return count;
    },
    async close() {
      server.off('upgrade', onUpgrade);
      unlistenSessions();
      hub.stop();
      for (const connection of connections) connection.cut(CLOSE_SHUTDOWN, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const connection of connections) connection.socket.terminate();
    },
  };
}
