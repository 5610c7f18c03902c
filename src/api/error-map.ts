/**
 * Result code → the venue's wire code, message and HTTP status, per API dialect. This table
 * is the only place wire codes are chosen; docs/errors.md is generated from the same facts
 * and test/api/error-map.test.ts keeps the two in step.
 *
 * Dialects: the venue answers the same condition with different codes on its spot (v2),
 * futures (v2 mix) and unified (v3) APIs, e.g. insufficient balance is 43012, 40762 or 25202.
 */
import type { ResultCode } from '../domain/result-code.ts';

export type Dialect = 'v2' | 'v2-spot' | 'v2-mix' | 'v3' | 'admin';

export interface WireError {
  code: string;
  msg: string;
  http: number;
}

type Entry = WireError & Partial<Record<Dialect, WireError>>;

const e = (code: string, msg: string, http = 400): WireError => ({ code, msg, http });

export const ERROR_MAP: Record<Exclude<ResultCode, 'OK'>, Entry> = {
  PATH_NOT_FOUND: e('40404', 'Request URL NOT FOUND', 404),
  API_V1_DECOMMISSIONED: e('30032', 'The V1 API has been decommissioned. Please migrate to a newer version.'),
  BODY_NOT_JSON: e('40017', 'Parameter verification failed {0}'),
  BODY_TOO_LARGE: e('40017', 'Parameter verification failed {0}', 413),
  CONTENT_TYPE_INVALID: e('40007', 'Invalid Content_Type'),
  PARAM_INVALID: e('40017', 'Parameter verification failed {0}'),
  PARAM_EMPTY: e('40019', 'Parameter {0} cannot be empty'),
  PARAM_ERROR: e('40020', 'Parameter {0} error'),
  PARAM_NOT_EXIST: e('40034', 'Parameter {0} does not exist'),
  ACCESS_KEY_EMPTY: e('40001', 'ACCESS_KEY cannot be empty'),
  ACCESS_SIGN_EMPTY: e('40002', 'ACCESS_SIGN cannot be empty'),
  ACCESS_PASSPHRASE_EMPTY: e('40011', 'ACCESS_PASSPHRASE cannot be empty'),
  ACCESS_TIMESTAMP_INVALID: e('40005', 'Invalid ACCESS_TIMESTAMP'),
  ACCESS_TIMESTAMP_EXPIRED: e('40008', 'Request timestamp expired'),
  API_KEY_INVALID: e('40006', 'Invalid ACCESS_KEY'),
  PASSPHRASE_INCORRECT: e('40012', 'apikey/password is incorrect'),
  IP_NOT_WHITELISTED: e('40018', 'Invalid IP'),
  SIGNATURE_INVALID: e('40009', 'sign signature error'),
  PERMISSION_DENIED: {
    ...e('40014', 'Incorrect permissions, need {0} permissions'),
    v3: e('25620', 'permission denied'),
  },
  USER_STATUS_ABNORMAL: e('40013', 'User status is abnormal'),
  CLASSIC_ACCOUNT_ON_UNIFIED_API: e(
    '40084',
    'You are in Classic Account mode, and the Unified Account API is not supported at this time',
  ),
  UNIFIED_ACCOUNT_ON_CLASSIC_API: e(
    '40085',
    'You are in Unified Account mode, and the Classic Account API is not supported at this time',
  ),
  RATE_LIMITED: e('429', 'Too Many Requests', 429),
  SYSTEM_ERROR: e('45001', 'Unknown error', 500),
  STORE_UNAVAILABLE: e('40725', 'service return an error', 503),
  OPERATOR_UNAUTHORIZED: e('40001', 'operator token missing or wrong', 401),
  ACCOUNT_NOT_FOUND: e('40034', 'Parameter {0} does not exist'),
  INSUFFICIENT_BALANCE: {
    ...e('43012', 'Insufficient balance'),
    'v2-mix': e('40762', 'The order size is greater than the max open size'),
    v3: e('25202', 'Insufficient balance'),
  },
  COIN_NOT_FOUND: {
    ...e('40034', 'Parameter {0} does not exist'),
    v3: e('25201', 'Currency does not exist'),
  },
  SYMBOL_NOT_FOUND: {
    ...e('40034', 'Parameter {0} does not exist'),
    v3: e('25100', 'Trading pair {0} does not exist'),
  },
  INSTRUMENT_EXISTS: e('40020', 'Parameter {0} error'),
  CLOCK_NOT_SIMULATED: e('40020', 'Parameter {0} error'),
};

export function wireError(
  code: Exclude<ResultCode, 'OK'>,
  dialect: Dialect,
  params: readonly string[] = [],
): WireError {
  const entry = ERROR_MAP[code];
  const chosen = entry[dialect] ?? entry;
  const msg = chosen.msg.replace(/\{(\d+)\}/g, (_slot, index: string) => params[Number(index)] ?? '');
  return { code: chosen.code, msg: msg.replace(/\s+$/, ''), http: chosen.http };
}
