/**
 * Bounds on what one client can make the WebSocket endpoint do (docs/websocket.md, Limits).
 *
 * - Connections: at most `maxConnectionsPerIp` per client IP (the venue's 100) and
 *   `maxConnections` in all; an upgrade over either is answered HTTP 429 and never opened.
 * - Args: a subscribe or unsubscribe carries at most `maxArgsPerMessage` args (the venue caps
 *   a message at 4096 bytes, ~60 args); more is one 30016, not a reply per arg. Each arg is one
 *   subscription request against the connection's `subscriptionRequestsPerHour` (the venue's
 *   240), a bucket refilled evenly over the hour; a message whose args do not fit is one 30006.
 *   With the messages-per-second limit this bounds the frames a message can cause.
 * - Nesting: a message nested deeper than MAX_JSON_NESTING is refused (30016) before it is
 *   parsed; echoing such an arg back overflowed the stack and the client got no answer.
 */
import type { WsConfig } from './config.ts';

/** Deepest nesting of arrays and objects in an accepted message (a subscribe needs 3). */
export const MAX_JSON_NESTING = 8;

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;

/** True when `text` nests arrays and objects deeper than `limit` (brackets in strings aside). */
export function jsonNestingExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/** Open connections per IP and in all; a place is taken at the upgrade and given back at close. */
export class ConnectionLimits {
  private readonly byIp = new Map<string, number>();
  private total = 0;

  constructor(private readonly config: Pick<WsConfig, 'maxConnections' | 'maxConnectionsPerIp'>) {}

  /** Takes a place for `ip`; false (nothing taken) when the IP or the server is full. */
  take(ip: string): boolean {
    const held = this.byIp.get(ip) ?? 0;
    if (this.total >= this.config.maxConnections || held >= this.config.maxConnectionsPerIp) return false;
    this.byIp.set(ip, held + 1);
    this.total += 1;
    return true;
  }

  release(ip: string): void {
    const held = this.byIp.get(ip) ?? 0;
    if (held <= 1) this.byIp.delete(ip);
    else this.byIp.set(ip, held - 1);
    if (held > 0) this.total -= 1;
  }

  get count(): number {
    return this.total;
  }
}

/** A connection's subscription requests: a bucket of `perHour` refilled evenly over an hour. */
export class SubscriptionBudget {
  private tokens: number;
  private updatedMs: number;

  constructor(
    private readonly perHour: number,
    nowMs: number,
  ) {
    this.tokens = perHour;
    this.updatedMs = nowMs;
  }

  /** Spends `count` requests; false (nothing spent) when fewer are left. */
  spend(count: number, nowMs: number): boolean {
    const refill = ((nowMs - this.updatedMs) * this.perHour) / 3_600_000;
    this.tokens = Math.min(this.perHour, this.tokens + Math.max(0, refill));
    this.updatedMs = nowMs;
    if (count > this.tokens) return false;
    this.tokens -= count;
    return true;
  }
}
