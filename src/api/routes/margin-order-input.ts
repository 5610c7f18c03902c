/**
 * Reading v2 margin trade requests: an order (`loanType`, `baseSize` or `quoteSize`), an
 * order reference, a batch list (at most 50).
 */
import { LOAN_TYPES, type OrderReference, type OrderRequest } from '../../domain/commands.ts';
import {
  CLIENT_OID_PATTERN,
  ORDER_SIDES,
  ORDER_TYPES,
  STP_MODES,
  TIMES_IN_FORCE,
} from '../../domain/order.ts';
import type { MarginType } from '../../engine/margin/margin-wallet.ts';
import {
  asObject,
  optionalDecimal,
  optionalEnum,
  optionalString,
  requiredEnum,
  requiredString,
  type Fields,
} from '../params.ts';
import { reject } from '../request.ts';
import { refuseSpotTpsl } from './preset-input.ts';

const MAX_BATCH = 50;

/** One margin order: `baseSize` (limit, market sell) or `quoteSize` (market buy). */
export function parseMarginOrder(item: unknown, symbol: string, marginType: MarginType): OrderRequest {
  const fields = asObject(item, 'order');
  refuseSpotTpsl(fields);
  const orderType = requiredEnum(fields, 'orderType', ORDER_TYPES);
  const side = requiredEnum(fields, 'side', ORDER_SIDES);
  const price = optionalDecimal(fields, 'price');
  if (orderType === 'limit' && price === undefined) reject('PARAM_EMPTY', 'price');
  const force = optionalEnum(fields, 'force', TIMES_IN_FORCE);
  if (orderType === 'limit' && force === undefined) reject('PARAM_EMPTY', 'force');
  const byQuote = orderType === 'market' && side === 'buy';
  const sizeName = byQuote ? 'quoteSize' : 'baseSize';
  const quantity = optionalDecimal(fields, sizeName);
  if (quantity === undefined) reject('PARAM_EMPTY', sizeName);
  // The other size is not what this order is sized by: refused, never ignored.
  if (optionalString(fields, byQuote ? 'baseSize' : 'quoteSize') !== undefined)
    reject('PARAM_ERROR', byQuote ? 'baseSize' : 'quoteSize');
  const clientOid = optionalString(fields, 'clientOid');
  if (clientOid !== undefined && !CLIENT_OID_PATTERN.test(clientOid)) reject('PARAM_ERROR', 'clientOid');
  const request: OrderRequest = {
    symbol,
    side,
    orderType,
    timeInForce: force ?? 'gtc',
    stpMode: optionalEnum(fields, 'stpMode', STP_MODES) ?? 'none',
    quantity,
    marginMode: marginType,
    loanType: requiredEnum(fields, 'loanType', LOAN_TYPES),
  };
  if (clientOid !== undefined) request.clientOid = clientOid;
  if (orderType === 'limit' && price !== undefined) request.price = price;
  return request;
}

export function symbolOf(fields: Fields): string {
  return requiredString(fields, 'symbol').toUpperCase();
}

export function reference(fields: Fields, symbol: string): OrderReference {
  const orderId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!orderId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  return { ...(orderId ? { orderId } : { clientOid: clientOid ?? '' }), symbol, category: 'MARGIN' };
}

export function list(body: Fields, name: string): unknown[] {
  const items = body[name];
  if (items === undefined || items === null) reject('PARAM_EMPTY', name);
  if (!Array.isArray(items)) reject('PARAM_ERROR', name);
  if (items.length === 0) reject('PARAM_EMPTY', name);
  if (items.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
  return items;
}
