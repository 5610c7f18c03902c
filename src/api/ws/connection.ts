/**
 * One WebSocket connection: its dialect (from the path), login, subscriptions, inbound rate
 * limit, idle timer and outbound back-pressure. Nothing is buffered without bound: when more
 * than `maxBufferedBytes` wait in the socket, the connection is closed (code 4001, reason
 * "slow consumer…") and terminated if the close cannot get out.
 */
import type { WebSocket } from 'ws';
import type { Account, ApiKeyRecord } from '../../domain/account.ts';
import type { Channel, Dialect } from './channels.ts';
import type { WsConfig } from './config.ts';

export const CLOSE_SLOW_CONSUMER = 4001;
export const CLOSE_IDLE = 4002;
export const CLOSE_TOO_MANY_REQUESTS = 4003;
export const CLOSE_LOGIN_FAILED = 4004;
/** The key was frozen, revoked or changed, or the account frozen, after login (sessions.ts). */
export const CLOSE_SESSION_ENDED = 4005;
export const CLOSE_SHUTDOWN = 1001;
/** The operator reset the venue (WebSocket "service restart"): log in and subscribe again. */
export const CLOSE_RESET = 1012;

export interface Subscription {
  channel: Channel;
  connection: Connection;
  /** Pushes held back while the first (snapshot) push is being built; null once it is out. */
  queue: (string | Buffer)[] | null;
  /** What was last pushed, per row key (account) or whole (positions, books snapshots). */
  lastRows: Map<string, string>;
  lastText: string;
}

let nextConnectionId = 1;

export class Connection {
  readonly id = nextConnectionId++;
  account: Account | null = null;
  key: ApiKeyRecord | null = null;
  readonly subscriptions = new Map<string, Subscription>();
  closed = false;
  private windowStartMs = 0;
  private windowCount = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    readonly socket: WebSocket,
    readonly dialect: Dialect,
    readonly ip: string,
    private readonly config: WsConfig,
  ) {
    this.touch();
  }

  get uid(): string | null {
    return this.account?.uid ?? null;
  }

  /**
   * Sends one text frame (a Buffer is sent as text too: fan-out encodes a frame once for all
   * its subscribers); false, and the connection cut, when the client is too slow.
   */
  send(text: string | Buffer): boolean {
    if (this.closed) return false;
    if (this.socket.bufferedAmount > this.config.maxBufferedBytes) {
      this.cut(CLOSE_SLOW_CONSUMER, `slow consumer: more than ${this.config.maxBufferedBytes} bytes unsent`);
      return false;
    }
    this.socket.send(text, { binary: false });
    return true;
  }

  sendJson(message: unknown): boolean {
    return this.send(JSON.stringify(message));
  }

  /** Counts an inbound message; false when it is over the per-second limit. */
  admit(nowMs: number): boolean {
    if (nowMs - this.windowStartMs >= 1000) {
      this.windowStartMs = nowMs;
      this.windowCount = 0;
    }
    this.windowCount += 1;
    return this.windowCount <= this.config.messagesPerSecond;
  }

  /** True when the client is far over the limit (three times): the venue then disconnects. */
  abusive(): boolean {
    return this.windowCount > 3 * this.config.messagesPerSecond;
  }

  /** Restarts the idle timer (any inbound message counts, "ping" included). */
  touch(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(
      () => this.cut(CLOSE_IDLE, `no message for ${this.config.idleMs} ms`),
      this.config.idleMs,
    );
    this.idleTimer.unref();
  }

  /** Closes with a code and reason; terminates if the close handshake does not finish in 1 s. */
  cut(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.stopTimers();
    this.socket.close(code, reason);
    const force = setTimeout(() => this.socket.terminate(), 1000);
    force.unref();
    this.socket.once('close', () => clearTimeout(force));
  }

  stopTimers(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
