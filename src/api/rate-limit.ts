/**
 * Per-second request limits, per UID or per IP as the venue publishes them, counted in
 * fixed one-second windows per (route, key). Limits are configuration: BOURSE_RATE_LIMITS
 * may turn them off, scale them, or override single paths (see docs/configuration.md).
 */
import type { RateLimitRule } from './request.ts';

export interface RateLimitConfig {
  enabled: boolean;
  /** Multiplies every limit (e.g. 10 for a load test that still wants limits on). */
  scale: number;
  /** Per-path overrides of requests per second. */
  overrides: Record<string, number>;
}

interface Window {
  second: number;
  count: number;
}

export class RateLimiter {
  /** Path → subject → window: looked up by the two strings as they are, no key made per request. */
  private windows = new Map<string, Map<string, Window>>();
  private sweptSecond = 0;

  constructor(private readonly config: RateLimitConfig) {}

  /** Requests per second `rule` allows on `path` under `config` (its overrides and scale). */
  static limitOf(config: RateLimitConfig, path: string, rule: RateLimitRule): number {
    return Math.max(1, Math.floor((config.overrides[path] ?? rule.perSecond) * config.scale));
  }

  /** Counts one request; false when it is over the limit. */
  allow(path: string, rule: RateLimitRule, subject: string, nowMs: number): boolean {
    if (!this.config.enabled) return true;
    const limit = RateLimiter.limitOf(this.config, path, rule);
    const second = Math.floor(nowMs / 1000);
    this.sweep(second);
    let bySubject = this.windows.get(path);
    if (!bySubject) this.windows.set(path, (bySubject = new Map()));
    const window = bySubject.get(subject);
    if (!window || window.second !== second) {
      bySubject.set(subject, { second, count: 1 });
      return true;
    }
    window.count += 1;
    return window.count <= limit;
  }

  /** Drops windows of past seconds now and then, so memory stays bounded by live callers. */
  private sweep(second: number): void {
    if (second - this.sweptSecond < 10) return;
    this.sweptSecond = second;
    for (const [path, bySubject] of this.windows) {
      for (const [subject, window] of bySubject) if (window.second < second) bySubject.delete(subject);
      if (bySubject.size === 0) this.windows.delete(path);
    }
  }
}

export function parseRateLimitConfig(text: string | undefined): RateLimitConfig {
  const config: RateLimitConfig = { enabled: true, scale: 1, overrides: {} };
  if (!text) return config;
  if (text === 'off') return { ...config, enabled: false };
  if (/^x\d+(\.\d+)?$/.test(text)) return { ...config, scale: Number(text.slice(1)) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(
      'BOURSE_RATE_LIMITS must be off, x<factor>, or a JSON object of path to requests per second',
    );
  }
  for (const [path, value] of Object.entries(parsed)) {
    if (!path.startsWith('/'))
      throw new Error(`BOURSE_RATE_LIMITS: ${path} is not a path (paths start with /)`);
    if (typeof value !== 'number' || !(value > 0))
      throw new Error(`BOURSE_RATE_LIMITS: ${path} must be a positive number`);
    config.overrides[path] = value;
  }
  return config;
}

/**
 * Refuses overrides of paths that have no limit (unknown, misspelt, or with a query string):
 * accepted silently they would limit nothing. `limitedPaths` are the routes' paths.
 */
export function checkRateLimitPaths(config: RateLimitConfig, limitedPaths: ReadonlySet<string>): void {
  const unknown = Object.keys(config.overrides).filter((path) => !limitedPaths.has(path));
  if (unknown.length === 0) return;
  const [first] = unknown;
  const listed = unknown.length === 1 ? `${first} is not a path` : `${unknown.join(', ')} are not paths`;
  throw new Error(
    `BOURSE_RATE_LIMITS: ${listed} bourse limits: give the path as the API documents it, without ` +
      'host or query string (e.g. /api/v2/spot/account/info); docs/configuration.md',
  );
}
