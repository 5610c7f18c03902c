/**
 * Authentication in the venue's order: headers, timestamp, key, account-mode
 * gate, passphrase, IP whitelist, signature, then permission. Each failure is the venue's code.
 *
 * The ±30 s window is checked against wall time, not the engine's (possibly simulated) clock:
 * real clients sign with their wall clock. Opened secrets and verified passphrases are cached
 * in memory only (passphrase-cache.ts), so a signed request costs one HMAC, not an AES open and
 * an scrypt. A passphrase not verified before is checked only while its key and the client IP
 * are under their failure limits (auth-failures.ts); otherwise the answer is 429 at once.
 */
import { hasPermission, type Account, type ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { verifyPassphrase } from '../../security/secrets.ts';
import { reject, type ApiRequest, type Caller, type PermissionRule, type Route } from '../request.ts';
import { HmacKey } from './hmac-key.ts';
import { AuthFailures, DEFAULT_AUTH_FAILURE_LIMITS, type AuthFailureLimits } from './auth-failures.ts';
import { PassphraseCache } from './passphrase-cache.ts';
import { standingOf } from './standing.ts';
import { verifySignature } from './signature.ts';

export const TIMESTAMP_TOLERANCE_MS = 30_000;

function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

interface OpenedKey {
  secret: string;
  /** The secret as an HMAC key, made once per key (hmac-key.ts). */
  hmac: HmacKey;
  sealedSecret: string;
}

/** What a request says about its signature. */
interface Signed {
  signature: string;
  timestamp: string;
  rawQuery: string;
  rawBody: string;
}

export interface AuthOptions {
  box: SecretBox;
  enforceAccountMode: boolean;
  wallNow: () => number;
  /** Failed passphrase checks allowed per key and per IP (default: DEFAULT_AUTH_FAILURE_LIMITS). */
  failureLimits?: AuthFailureLimits;
}

/** A passphrase check: right, wrong, or not made because the key or the IP is at its limit. */
export type PassphraseVerdict = 'right' | 'wrong' | 'limited';

export class Authenticator {
  private readonly opened = new Map<string, OpenedKey>();
  private readonly passphrases = new PassphraseCache();
  private readonly failures: AuthFailures;
  /**
   * Checks running, by key, passphrase and passphrase hash: a client that opens many
   * connections and sends on each at once waits for its first check rather than paying a
   * scrypt per connection or meeting the limit on checks in progress. Entries live only while
   * their check runs, and the failure limits bound how many run.
   */
  private readonly running = new Map<string, Promise<'right' | 'wrong'>>();

  constructor(private readonly options: AuthOptions) {
    this.failures = new AuthFailures(options.failureLimits ?? DEFAULT_AUTH_FAILURE_LIMITS);
  }

  /**
   * Authenticates `request` for `route`: the caller, or a rejection (thrown). The caller comes
   * at once when the passphrase was verified before (the usual case: no promise, no await on
   * the request's path), else as a promise once the passphrase check returns.
   */
  authenticate(
    state: EngineState,
    request: ApiRequest,
    route: Route,
    rawQuery: string,
    rawBody: string,
  ): Caller | Promise<Caller> {
    const apiKey = header(request, 'access-key');
    const signature = header(request, 'access-sign');
    const passphrase = header(request, 'access-passphrase');
    const timestamp = header(request, 'access-timestamp');
    if (apiKey === undefined) reject('API_KEY_INVALID');
    if (apiKey === '') reject('ACCESS_KEY_EMPTY');
    if (!signature) reject('ACCESS_SIGN_EMPTY');
    if (!passphrase) reject('ACCESS_PASSPHRASE_EMPTY');
    if (!timestamp || !/^\d{1,16}$/.test(timestamp)) reject('ACCESS_TIMESTAMP_INVALID');
    if (Math.abs(this.options.wallNow() - Number(timestamp)) > TIMESTAMP_TOLERANCE_MS) {
      reject('ACCESS_TIMESTAMP_EXPIRED');
    }
    const standing = standingOf(state, apiKey);
    if ('refused' in standing) reject(standing.refused);
    const { key, account } = standing;
    if (this.options.enforceAccountMode && route.accountMode && route.accountMode !== account.mode) {
      reject(
        account.mode === 'classic' ? 'CLASSIC_ACCOUNT_ON_UNIFIED_API' : 'UNIFIED_ACCOUNT_ON_CLASSIC_API',
      );
    }
    const signed: Signed = { signature, timestamp, rawQuery, rawBody };
    if (this.passphrases.has(key, passphrase))
      return this.afterPassphrase(request, route, account, key, signed);
    return this.checkPassphrase(key, passphrase, request.ip).then((verdict) => {
      if (verdict === 'limited') reject('AUTH_FAILURES_LIMITED');
      if (verdict === 'wrong') reject('PASSPHRASE_INCORRECT');
      return this.afterPassphrase(request, route, account, key, signed);
    });
  }

  /** The checks after the passphrase: IP whitelist, signature, permission. */
  private afterPassphrase(
    request: ApiRequest,
    route: Route,
    account: Account,
    key: ApiKeyRecord,
    signed: Signed,
  ): Caller {
    const opened = this.open(key.apiKey, key.secretCipher);
    if (key.ipList.length > 0 && !key.ipList.includes(request.ip)) reject('IP_NOT_WHITELISTED');
    const { signature, timestamp, rawQuery, rawBody } = signed;
    if (
      !verifySignature(opened.hmac, signature, timestamp, request.method, request.path, rawQuery, rawBody)
    ) {
      reject('SIGNATURE_INVALID');
    }
    const caller: Caller = { account, key };
    const needed = typeof route.permission === 'function' ? route.permission(request) : route.permission;
    if (needed) {
      for (const rule of Array.isArray(needed)
        ? (needed as readonly PermissionRule[])
        : [needed as PermissionRule]) {
        if (!hasPermission(key.permissions, rule.area, rule.write)) {
          reject('PERMISSION_DENIED', rule.write ? 'read and write' : 'read');
        }
      }
    }
    return caller;
  }

  /**
   * The key's secret once `passphrase` is verified against it, or why not. The same checks,
   * limits and caches as a signed request; the WebSocket login (src/api/ws/login.ts) uses it.
   */
  async unlock(
    key: ApiKeyRecord,
    passphrase: string,
    ip: string,
  ): Promise<{ secret: string } | { refused: Exclude<PassphraseVerdict, 'right'> }> {
    const verdict = await this.checkPassphrase(key, passphrase, ip);
    if (verdict !== 'right') return { refused: verdict };
    return { secret: this.open(key.apiKey, key.secretCipher).secret };
  }

  private open(apiKey: string, sealedSecret: string): OpenedKey {
    const cached = this.opened.get(apiKey);
    if (cached && cached.sealedSecret === sealedSecret) return cached;
    const secret = this.options.box.open(sealedSecret);
    const opened: OpenedKey = { secret, hmac: new HmacKey(secret), sealedSecret };
    this.opened.set(apiKey, opened);
    return opened;
  }

  /** Remembered passphrases pass at once; others cost a scrypt, admitted under the limits. */
  private async checkPassphrase(
    key: ApiKeyRecord,
    passphrase: string,
    ip: string,
  ): Promise<PassphraseVerdict> {
    if (this.passphrases.has(key, passphrase)) return 'right';
    const name = this.passphrases.checkName(key, passphrase);
    const running = this.running.get(name);
    if (running) return running;
    if (!this.failures.admit(key.apiKey, ip, this.options.wallNow())) return 'limited';
    const check = this.verify(key, passphrase, ip).finally(() => this.running.delete(name));
    this.running.set(name, check);
    return check;
  }

  private async verify(key: ApiKeyRecord, passphrase: string, ip: string): Promise<'right' | 'wrong'> {
    if (!(await verifyPassphrase(passphrase, key.passphraseHash))) return 'wrong';
    this.failures.succeeded(key.apiKey, ip);
    this.passphrases.remember(key, passphrase);
    return 'right';
  }
}
