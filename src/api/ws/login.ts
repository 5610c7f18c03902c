/**
 * The venue's WebSocket login: {"op":"login","args":[{apiKey, passphrase, timestamp, sign}]}
 * with sign = base64(HMAC-SHA256(secret, timestamp + "GET" + "/user/verify")), the timestamp
 * signed exactly as sent. Seconds (bitget-api, ccxt) or milliseconds are accepted, within
 * ±30 s of wall time. Checks run in the REST order (wire.md §1.5): fields, timestamp, key,
 * passphrase, IP whitelist, signature; each failure is its 300xx code. The key's secret is
 * opened and its passphrase verified by the REST Authenticator (same cache logic).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Account, ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { TIMESTAMP_TOLERANCE_MS } from '../auth/authenticate.ts';
import { sign } from '../auth/signature.ts';
import { WS_CODES, wsError, type WsError } from './codes.ts';

export const LOGIN_PREHASH_SUFFIX = 'GET/user/verify';

export interface LoggedIn {
  account: Account;
  key: ApiKeyRecord;
}

const field = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : '';

/** Unix ms of a login timestamp in seconds (≤ 11 digits) or milliseconds; null if not one. */
export function loginTimeMs(timestamp: string): number | null {
  if (!/^\d{1,16}$/.test(timestamp)) return null;
  const value = Number(timestamp);
  return timestamp.length <= 11 ? value * 1000 : value;
}

function signatureMatches(secret: string, timestamp: string, given: string): boolean {
  const expected = Buffer.from(sign(secret, `${timestamp}${LOGIN_PREHASH_SUFFIX}`), 'utf8');
  const actual = Buffer.from(given, 'utf8');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export async function verifyLogin(
  state: EngineState,
  authenticator: Authenticator,
  args: unknown,
  ip: string,
  wallNowMs: number,
): Promise<LoggedIn | WsError> {
  const first: unknown = Array.isArray(args) ? args[0] : undefined;
  if (typeof first !== 'object' || first === null) return wsError(WS_CODES.PARAM_ERROR, 'Param error');
  const fields = first as Record<string, unknown>;
  const apiKey = field(fields.apiKey);
  const passphrase = field(fields.passphrase);
  const timestamp = field(fields.timestamp);
  const signature = field(fields.sign);
  if (!apiKey) return wsError(WS_CODES.INVALID_ACCESS_KEY, 'Invalid ACCESS_KEY');
  if (!passphrase) return wsError(WS_CODES.INVALID_PASSPHRASE, 'Invalid ACCESS_PASSPHRASE');
  const timeMs = loginTimeMs(timestamp);
  if (timeMs === null) return wsError(WS_CODES.INVALID_TIMESTAMP, 'Invalid ACCESS_TIMESTAMP');
  if (Math.abs(wallNowMs - timeMs) > TIMESTAMP_TOLERANCE_MS)
    return wsError(WS_CODES.TIMESTAMP_EXPIRED, 'Request timestamp expired');
  if (!signature) return wsError(WS_CODES.INVALID_SIGN, 'Invalid sign');
  const key = state.apiKeys.get(apiKey);
  const account = key ? state.accounts.get(key.uid) : undefined;
  if (!key || !account) return wsError(WS_CODES.INVALID_ACCESS_KEY, 'Invalid ACCESS_KEY');
  if (account.status === 'freeze') return wsError(WS_CODES.LOGIN_FAILED, 'login failed: account frozen');
  if (key.frozen) return wsError(WS_CODES.LOGIN_FAILED, 'login failed: API key frozen');
  const secret = await authenticator.unlock(key, passphrase);
  if (secret === null) return wsError(WS_CODES.INVALID_PASSPHRASE, 'Invalid ACCESS_PASSPHRASE');
  if (key.ipList.length > 0 && !key.ipList.includes(ip))
    return wsError(WS_CODES.LOGIN_FAILED, `login failed: IP ${ip} is not in the key's whitelist`);
  if (!signatureMatches(secret, timestamp, signature)) return wsError(WS_CODES.INVALID_SIGN, 'Invalid sign');
  return { account, key };
}
