/**
 * The venue's WebSocket login: {"op":"login","args":[{apiKey, passphrase, timestamp, sign}]}
 * with sign = base64(HMAC-SHA256(secret, timestamp + "GET" + "/user/verify")), the timestamp
 * signed exactly as sent. Seconds (bitget-api, ccxt) or milliseconds are accepted, within
 * ±30 s of wall time. Checks run in the REST order: fields, timestamp, key,
 * passphrase, IP whitelist, signature; each failure is its 300xx code. The key's secret is
 * opened and its passphrase verified by the REST Authenticator (same cache, same failure limits:
 * over them the login is refused with 30006 before any scrypt).
 */
import { timingSafeEqual } from 'node:crypto';
import type { Account, ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';
import type { Authenticator } from '../auth/authenticate.ts';
import { TIMESTAMP_TOLERANCE_MS } from '../auth/authenticate.ts';
import { sign } from '../auth/signature.ts';
import { standingOf } from '../auth/standing.ts';
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

function standingIn(state: EngineState, apiKey: string): LoggedIn | WsError {
  const standing = standingOf(state, apiKey);
  if (!('refused' in standing)) return standing;
  return standing.refused === 'USER_STATUS_ABNORMAL'
    ? wsError(WS_CODES.LOGIN_FAILED, `login failed: ${standing.frozen} frozen`)
    : wsError(WS_CODES.INVALID_ACCESS_KEY, 'Invalid ACCESS_KEY');
}

export async function verifyLogin(
  stateNow: () => EngineState,
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
  const standing = standingIn(stateNow(), apiKey);
  if ('code' in standing) return standing;
  const unlocked = await authenticator.unlock(standing.key, passphrase, ip);
  if ('refused' in unlocked) {
    return unlocked.refused === 'limited'
      ? wsError(WS_CODES.TOO_MANY_REQUESTS, 'Request too many: too many failed logins for this key or IP')
      : wsError(WS_CODES.INVALID_PASSPHRASE, 'Invalid ACCESS_PASSPHRASE');
  }
  const { secret } = unlocked;
  // The passphrase check awaited: the key or its account may have changed meanwhile, and the
  // session is registered with what holds now (ws/sessions.ts reviews it from then on).
  const current = standingIn(stateNow(), apiKey);
  if ('code' in current) return current;
  const { key, account } = current;
  if (key.ipList.length > 0 && !key.ipList.includes(ip))
    return wsError(WS_CODES.LOGIN_FAILED, `login failed: IP ${ip} is not in the key's whitelist`);
  if (!signatureMatches(secret, timestamp, signature)) return wsError(WS_CODES.INVALID_SIGN, 'Invalid sign');
  return { account, key };
}
