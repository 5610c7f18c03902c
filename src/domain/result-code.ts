/**
 * The one vocabulary of outcomes. The core returns these; `api/error-map.ts` maps each to
 * the venue's wire code, message and HTTP status, per API dialect. docs/errors.md lists them
 * and a test keeps the three in step.
 */
export const RESULT_CODES = [
  'OK',
  // request shape and routing
  'PATH_NOT_FOUND',
  'API_V1_DECOMMISSIONED',
  'BODY_NOT_JSON',
  'BODY_TOO_LARGE',
  'CONTENT_TYPE_INVALID',
  'PARAM_INVALID',
  'PARAM_EMPTY',
  'PARAM_ERROR',
  'PARAM_NOT_EXIST',
  // authentication and permission
  'ACCESS_KEY_EMPTY',
  'ACCESS_SIGN_EMPTY',
  'ACCESS_PASSPHRASE_EMPTY',
  'ACCESS_TIMESTAMP_INVALID',
  'ACCESS_TIMESTAMP_EXPIRED',
  'API_KEY_INVALID',
  'PASSPHRASE_INCORRECT',
  'IP_NOT_WHITELISTED',
  'SIGNATURE_INVALID',
  'PERMISSION_DENIED',
  'USER_STATUS_ABNORMAL',
  'CLASSIC_ACCOUNT_ON_UNIFIED_API',
  'UNIFIED_ACCOUNT_ON_CLASSIC_API',
  'RATE_LIMITED',
  'AUTH_FAILURES_LIMITED',
  // service
  'SYSTEM_ERROR',
  'STORE_UNAVAILABLE',
  'SERVICE_RESETTING',
  'SERVER_NOT_READY',
  'OPERATOR_UNAUTHORIZED',
  // accounts, wallets, instruments
  'ACCOUNT_NOT_FOUND',
  'INSUFFICIENT_BALANCE',
  'COIN_NOT_FOUND',
  'SYMBOL_NOT_FOUND',
  'INSTRUMENT_EXISTS',
  'CLOCK_NOT_SIMULATED',
  // transfers, sub-accounts, broker records
  'TRANSFER_EXCEEDS_MAXIMUM',
  'IP_BINDING_REQUIRED',
  'FUNDING_NOT_PENDING',
  // convert
  'QUOTE_EXPIRED',
  // orders
  'SYMBOL_NOT_OPEN',
  'SYMBOL_OFFLINE',
  'SYMBOL_RESTRICTED',
  'PRICE_PRECISION_INVALID',
  'PRICE_STEP_INVALID',
  'QUANTITY_PRECISION_INVALID',
  'QUANTITY_STEP_INVALID',
  'QUANTITY_BELOW_MINIMUM',
  'QUANTITY_ABOVE_MAXIMUM',
  'AMOUNT_BELOW_MINIMUM',
  'PRICE_ABOVE_LIMIT',
  'PRICE_BELOW_LIMIT',
  'TOO_MANY_OPEN_ORDERS',
  'DUPLICATE_CLIENT_OID',
  'CLIENT_OID_TOO_LONG',
  'BATCH_TOO_LARGE',
  'ORDER_NOT_FOUND',
  'ORDER_QUERY_NOT_FOUND',
  'ORDER_NOT_MODIFIABLE',
  'MODIFY_PENDING',
  'MODIFY_UNCHANGED',
  'TIME_RANGE_INVALID',
  'NO_DEBT',
  'SPOT_TPSL_UNSUPPORTED',
  'FIELD_UNSERVED',
  // futures
  'OPEN_SIZE_EXCEEDED',
  'POSITION_INSUFFICIENT',
  'POSITION_MODE_MISMATCH',
  'POSITION_OR_ORDER_EXISTS',
  'MARGIN_MODE_LOCKED',
  'LEVERAGE_INVALID',
  'MARGIN_MODE_MISMATCH',
  'REDUCE_ONLY_REPLACED',
  'NO_POSITION_TO_CLOSE',
  // plan orders (triggers, trailing stops, TP/SL)
  'PLAN_NOT_FOUND',
  'TPSL_NOT_FOUND',
  'PLAN_LIMIT_REACHED',
  'TPSL_LIMIT_REACHED',
  'TPSL_NO_POSITION',
  'TPSL_POSITION_INSUFFICIENT',
  'TAKE_PROFIT_LONG_PRICE_INVALID',
  'TAKE_PROFIT_SHORT_PRICE_INVALID',
  'STOP_LOSS_LONG_PRICE_INVALID',
  'STOP_LOSS_SHORT_PRICE_INVALID',
  'PRESET_PRICE_INVALID',
  'PRICE_UNAVAILABLE',
] as const;

export type ResultCode = (typeof RESULT_CODES)[number];

/** A failed outcome; `params` fill the `{0}`, `{1}` slots of the venue's message template. */
export interface Failure {
  readonly code: Exclude<ResultCode, 'OK'>;
  readonly params?: readonly string[];
}

export type Outcome<T> = { readonly ok: true; readonly value: T } | ({ readonly ok: false } & Failure);

export function ok<T>(value: T): Outcome<T> {
  return { ok: true, value };
}

export function fail(code: Failure['code'], ...params: string[]): { ok: false } & Failure {
  return params.length > 0 ? { ok: false, code, params } : { ok: false, code };
}
