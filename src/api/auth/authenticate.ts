/**
 * Authentication in the venue's order (wire.md §1.5): headers, timestamp, key, account-mode
 * gate, passphrase, IP whitelist, signature, then permission. Each failure is the venue's code.
 *
 * The ±30 s window is checked against wall time, not the engine's (possibly simulated) clock:
 * real clients sign with their wall clock. Opened secrets and verified passphrases are cached
 * in memory only, so a signed request costs one HMAC, not an AES open and an scrypt.
 */
import { createHash } from 'node:crypto';
import { hasPermission, type ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import type { SecretBox } from '../../security/secrets.ts';
import { verifyPassphrase } from '../../security/secrets.ts';
import { reject, type ApiRequest, type Caller, type Route } from '../request.ts';
import { verifySignature } from './signature.ts';

export const TIMESTAMP_TOLERANCE_MS = 30_000;

function header(request: ApiRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

interface OpenedKey {
  secret: string;
  passphraseDigest?: string;
  sealedSecret: string;
  passphraseHash: string;
}

export interface AuthOptions {
  box: SecretBox;
  enforceAccountMode: boolean;
  wallNow: () => number;
}

export class Authenticator {
  private readonly opened = new Map<string, OpenedKey>();

  constructor(private readonly options: AuthOptions) {}

  /** Authenticates `request` for `route`; resolves the caller or rejects. */
  async authenticate(
    state: EngineState,
    request: ApiRequest,
    route: Route,
    rawQuery: string,
    rawBody: string,
  ): Promise<Caller> {
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
    const key = state.apiKeys.get(apiKey);
    const account = key ? state.accounts.get(key.uid) : undefined;
    if (!key || !account) reject('API_KEY_INVALID');
    if (account.status === 'freeze' || key.frozen) reject('USER_STATUS_ABNORMAL');
    if (this.options.enforceAccountMode && route.accountMode && route.accountMode !== account.mode) {
      reject(
        account.mode === 'classic' ? 'CLASSIC_ACCOUNT_ON_UNIFIED_API' : 'UNIFIED_ACCOUNT_ON_CLASSIC_API',
      );
    }
    const opened = this.open(apiKey, key.secretCipher, key.passphraseHash);
    if (!(await this.passphraseMatches(opened, passphrase))) reject('PASSPHRASE_INCORRECT');
    if (key.ipList.length > 0 && !key.ipList.includes(request.ip)) reject('IP_NOT_WHITELISTED');
    if (
      !verifySignature(opened.secret, signature, timestamp, request.method, request.path, rawQuery, rawBody)
    ) {
      reject('SIGNATURE_INVALID');
    }
    const caller: Caller = { account, key };
    const needed = typeof route.permission === 'function' ? route.permission(request) : route.permission;
    if (needed && !hasPermission(key.permissions, needed.area, needed.write)) {
      reject('PERMISSION_DENIED', needed.write ? 'read and write' : 'read');
    }
    return caller;
  }

  /**
   * The key's secret once `passphrase` is verified against it, or null. The same opening and
   * caching as a signed request; the WebSocket login (src/api/ws/login.ts) uses it.
   */
  async unlock(key: ApiKeyRecord, passphrase: string): Promise<string | null> {
    const opened = this.open(key.apiKey, key.secretCipher, key.passphraseHash);
    return (await this.passphraseMatches(opened, passphrase)) ? opened.secret : null;
  }

  private open(apiKey: string, sealedSecret: string, passphraseHash: string): OpenedKey {
    const cached = this.opened.get(apiKey);
    if (cached && cached.sealedSecret === sealedSecret && cached.passphraseHash === passphraseHash)
      return cached;
    const opened: OpenedKey = { secret: this.options.box.open(sealedSecret), sealedSecret, passphraseHash };
    this.opened.set(apiKey, opened);
    return opened;
  }

  private async passphraseMatches(opened: OpenedKey, passphrase: string): Promise<boolean> {
    const digest = createHash('sha256').update(passphrase).digest('hex');
    if (opened.passphraseDigest === digest) return true;
    if (!(await verifyPassphrase(passphrase, opened.passphraseHash))) return false;
    opened.passphraseDigest = digest;
    return true;
  }
}
