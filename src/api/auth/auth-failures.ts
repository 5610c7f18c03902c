/**
 * Limits on failed passphrase checks, per API key and per client IP, applied before the scrypt
 * a check costs (~16 MB and tens of ms of a libuv thread each).
 *
 * Why: a wrong passphrase for a known key used to cost one scrypt with no limit in front of
 * it (the route limits count per UID after authentication); 640 such requests queued behind
 * four threads delayed another key's first request by 16 s. Here a check is admitted only
 * while the key and the IP are under their limits, counting the checks still running (so a
 * burst sent at once is limited as well as a slow stream) and the ones that failed in the
 * current window; a check that succeeds gives its place back. A verified passphrase is
 * remembered (passphrase-cache.ts) and needs no check, so the honest path is never limited
 * once it has passed.
 *
 * Limits: fixed windows of `windowMs`; a limit of 0 turns that side off. Memory holds one
 * entry per key or IP seen failing in the last window (swept as windows pass). A key limited
 * by failures from anywhere also waits for its first check from its owner: that is the cost
 * of refusing to spend a scrypt per guess.
 */

export interface AuthFailureLimits {
  /** Failed (or running) passphrase checks per API key per window; 0: no limit. */
  perKey: number;
  /** Failed (or running) passphrase checks per client IP per window; 0: no limit. */
  perIp: number;
  windowMs: number;
}

export const DEFAULT_AUTH_FAILURE_LIMITS: AuthFailureLimits = { perKey: 10, perIp: 30, windowMs: 60_000 };

interface Window {
  index: number;
  count: number;
}

class Counter {
  private readonly windows = new Map<string, Window>();
  private sweptIndex = 0;

  constructor(private readonly limit: number) {}

  /** The window's count for `subject` (a fresh window when the last one has passed). */
  private windowOf(subject: string, index: number): Window {
    if (index - this.sweptIndex >= 2) {
      this.sweptIndex = index;
      for (const [name, window] of this.windows) if (window.index < index) this.windows.delete(name);
    }
    let window = this.windows.get(subject);
    if (!window || window.index !== index) this.windows.set(subject, (window = { index, count: 0 }));
    return window;
  }

  full(subject: string, index: number): boolean {
    return this.limit > 0 && this.windowOf(subject, index).count >= this.limit;
  }

  add(subject: string, index: number): void {
    if (this.limit > 0) this.windowOf(subject, index).count += 1;
  }

  /** Gives back one check of the subject's latest window (a success). */
  release(subject: string): void {
    const window = this.windows.get(subject);
    if (window && window.count > 0) window.count -= 1;
  }
}

export class AuthFailures {
  private readonly byKey: Counter;
  private readonly byIp: Counter;

  constructor(private readonly limits: AuthFailureLimits) {
    this.byKey = new Counter(limits.perKey);
    this.byIp = new Counter(limits.perIp);
  }

  /** Reserves one passphrase check for `apiKey` from `ip`; false when either is at its limit. */
  admit(apiKey: string, ip: string, nowMs: number): boolean {
    const index = Math.floor(nowMs / this.limits.windowMs);
    if (this.byKey.full(apiKey, index) || this.byIp.full(ip, index)) return false;
    this.byKey.add(apiKey, index);
    this.byIp.add(ip, index);
    return true;
  }

  /** The admitted check found the passphrase right: its place is given back. */
  succeeded(apiKey: string, ip: string): void {
    this.byKey.release(apiKey);
    this.byIp.release(ip);
  }
}
