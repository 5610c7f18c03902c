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
  AUTH_FAILURES_LIMITED: e('429', 'Too Many Requests', 429),
  SYSTEM_ERROR: e('45001', 'Unknown error', 500),
  STORE_UNAVAILABLE: e('40725', 'service return an error', 503),
  SERVICE_RESETTING: e('40015', 'System is abnormal, please try again later', 503),
  SERVER_NOT_READY: e('40015', 'System is abnormal, please try again later', 503),
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
  TRANSFER_EXCEEDS_MAXIMUM: e('43117', 'Exceeds the maximum amount that can be transferred'),
  IP_BINDING_REQUIRED: e('40018', 'Invalid IP'),
  FUNDING_NOT_PENDING: e('40020', 'Parameter {0} error'),
  QUOTE_EXPIRED: e('40020', 'Parameter {0} error: the quote has expired, request a new one'),
  SYMBOL_NOT_OPEN: {
    ...e(
      '43115',
      'The current trading pair is opening soon, please refer to the official announcement for the opening time',
    ),
    v3: e('25101', 'Trading pair not open for trading'),
  },
  SYMBOL_OFFLINE: {
    ...e(
      '41114',
      'The current trading pair is under maintenance, please refer to the official announcement for the opening time',
    ),
    'v2-mix': e('40309', 'The contract has been removed'),
    v3: e('25102', 'Trading pair temporarily closed for maintenance'),
  },
  SYMBOL_RESTRICTED: e('25013', '{0} not support API trade'),
  PRICE_PRECISION_INVALID: {
    ...e('41103', 'param {0} error'),
    'v2-mix': e('40808', 'Parameter verification exception {0}'),
    v3: e('25244', 'Price should be a multiple of {1}'),
  },
  PRICE_STEP_INVALID: {
    ...e('45115', 'The price you enter should be a multiple of {1}'),
    'v2-mix': e('40787', 'The price step does not match'),
    v3: e('25244', 'Price should be a multiple of {1}'),
  },
  QUANTITY_PRECISION_INVALID: {
    ...e('40808', 'Parameter verification exception {0}'),
    v3: e('25610', 'Order amount does not meet precision requirements'),
  },
  QUANTITY_STEP_INVALID: {
    ...e('22038', 'Please enter the quantity as an integral multiple of {1}'),
    v3: e('25610', 'Order amount does not meet precision requirements'),
  },
  QUANTITY_BELOW_MINIMUM: {
    ...e('43006', 'The order quantity is less than the minimum transaction quantity'),
    'v2-mix': e('45111', 'less than the minimum order quantity'),
    v3: e('25207', '{0} trading quantity cannot be less than {1} units'),
  },
  QUANTITY_ABOVE_MAXIMUM: {
    ...e('43007', 'The order quantity is greater than the maximum transaction quantity'),
    'v2-mix': e('45112', 'more than the maximum order quantity'),
    v3: e('25208', '{0} trading quantity cannot exceed {1} units'),
  },
  AMOUNT_BELOW_MINIMUM: {
    ...e('45110', 'less than the minimum amount {1} {2}'),
    v3: e('25611', 'Order quantity must be greater than the minimum order amount'),
  },
  PRICE_ABOVE_LIMIT: {
    ...e('40815', 'The order price is higher than the highest bid price'),
    v3: e('25206', '{0} trading price cannot exceed {1}%'),
  },
  PRICE_BELOW_LIMIT: {
    ...e('40816', 'The order price is lower than the lowest selling price'),
    v3: e('25205', '{0} trading price cannot be below {1}%'),
  },
  TOO_MANY_OPEN_ORDERS: {
    ...e('43005', 'Exceed the maximum number of orders'),
    'v2-mix': e('40761', 'The total number of unfilled orders is too high'),
    v3: e('25211', 'Exceeds the limit of {0} maximum orders'),
  },
  DUPLICATE_CLIENT_OID: {
    ...e('43118', 'clientOrderId duplicate'),
    'v2-mix': e('40786', 'Duplicate clientOid'),
    v3: e('25212', 'Duplicate clientOid'),
  },
  CLIENT_OID_TOO_LONG: e('40304', 'clientOid or clientOrderId length cannot greater than 50'),
  BATCH_TOO_LARGE: e('40306', 'Batch processing orders can only process up to {0}'),
  ORDER_NOT_FOUND: {
    ...e('43001', 'The order does not exist'),
    v3: e('25204', 'Order does not exist'),
  },
  ORDER_QUERY_NOT_FOUND: {
    ...e('43001', 'The order does not exist'),
    'v2-mix': e('40109', 'The data of the order cannot be found, please confirm the order number'),
    v3: e('25204', 'Order does not exist'),
  },
  ORDER_NOT_MODIFIABLE: {
    ...e('43001', 'The order does not exist'),
    v3: e('25568', 'The order does not meet the modification requirements.'),
  },
  MODIFY_PENDING: e('25003', 'Concurrent operation, please retry'),
  MODIFY_UNCHANGED: e(
    '25571',
    'The modification price and qty is the same as the original value. Please adjust and try again.',
  ),
  TIME_RANGE_INVALID: e('40017', 'Parameter verification failed {0}'),
  OPEN_SIZE_EXCEEDED: {
    ...e('40762', 'The order size is greater than the max open size'),
    v3: e('25230', 'Order quantity exceeds the maximum open quantity'),
  },
  POSITION_INSUFFICIENT: {
    ...e('40757', 'Not enough position is available.'),
    v3: e('25231', 'Close quantity cannot exceed the held position quantity'),
  },
  POSITION_MODE_MISMATCH: {
    ...e('40774', 'The order type for unilateral position must also be the unilateral position type.'),
    v3: e('25200', '{0} validation error'),
  },
  POSITION_OR_ORDER_EXISTS: e('40920', 'Position or order exists, the position mode cannot be switched'),
  MARGIN_MODE_LOCKED: e('45117', 'Currently holding positions or orders, the margin mode cannot be adjusted'),
  LEVERAGE_INVALID: {
    ...e('40797', 'Exceeded the maximum settable leverage'),
    v3: e('25223', 'Exceeds Max. leverage'),
  },
  MARGIN_MODE_MISMATCH: e('40020', 'Parameter {0} error'),
  REDUCE_ONLY_REPLACED: {
    ...e('40757', 'Not enough position is available.'),
    v3: e(
      '25232',
      'Reduce-only orders will only reduce your position; please cancel or modify existing orders before placing a new one',
    ),
  },
  NO_POSITION_TO_CLOSE: {
    ...e('22002', 'No position to close'),
    v3: e('25227', 'No position available to close'),
  },
  NO_DEBT: { ...e('40020', 'Parameter {0} error'), v3: e('25200', '{0} validation error') },
  SPOT_TPSL_UNSUPPORTED: {
    ...e('40020', 'Parameter {0} error: spot take-profit and stop-loss orders are not supported'),
    v3: e('25013', '{0} not support API trade'),
  },
  FIELD_UNSERVED: e('40020', 'Parameter {0} error: {1}'),
  PLAN_NOT_FOUND: { ...e('43025', 'Plan order does not exist'), v3: e('25204', 'Order does not exist') },
  TPSL_NOT_FOUND: {
    ...e('43020', 'Stop profit and stop loss order does not exist'),
    v3: e('25204', 'Order does not exist'),
  },
  PLAN_LIMIT_REACHED: {
    ...e('40889', 'The plan order of this contract has reached the upper limit'),
    'v2-spot': e('43071', 'Trigger order limit for a single trading pair is {0}'),
  },
  TPSL_LIMIT_REACHED: {
    ...e('40890', 'The order of stop-profit and stop-loss for this contract has reached the upper limit'),
    v3: e('25211', 'Exceeds the limit of {0} maximum orders'),
  },
  TPSL_NO_POSITION: {
    ...e(
      '40837',
      'There is no position in this position, so stop-profit and stop-loss orders cannot be made',
    ),
    v3: e('25227', 'No position available to close'),
  },
  TPSL_POSITION_INSUFFICIENT: {
    ...e('43023', 'Insufficient position, can not set profit or stop loss'),
    v3: e('25231', 'Close quantity cannot exceed the held position quantity'),
  },
  TAKE_PROFIT_LONG_PRICE_INVALID: {
    ...e('40830', 'The take profit price of the long position should be greater than the current price'),
    v3: e('25200', '{0} validation error'),
  },
  TAKE_PROFIT_SHORT_PRICE_INVALID: {
    ...e('40832', 'The take profit price of short positions should be less than the current price'),
    v3: e('25200', '{0} validation error'),
  },
  STOP_LOSS_LONG_PRICE_INVALID: {
    ...e('40834', 'The stop loss price of the long position should be less than the current price'),
    v3: e('25200', '{0} validation error'),
  },
  STOP_LOSS_SHORT_PRICE_INVALID: {
    ...e('40836', 'The stop loss price of the short position should be greater than the current price'),
    v3: e('25200', '{0} validation error'),
  },
  PRESET_PRICE_INVALID: {
    ...e('40895', 'The preset price does not match the order/execution price'),
    v3: e('25200', '{0} validation error'),
  },
  PRICE_UNAVAILABLE: e('40823', 'The transaction or reasonable marked price does not exist'),
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
