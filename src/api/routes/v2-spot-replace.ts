/**
 * Classic (v2) spot cancel-replace (docs/trading.md, "Cancel and replace"):
 * `cancel-replace-order` and `batch-cancel-replace-order` (at most 50 items), 5 requests per
 * second per UID each. The open limit order named by orderId (or clientOid) on `symbol` is
 * cancelled and a new limit order of `size` base coin at `price` (and `newClientOid`) is
 * placed, in one engine command (ReplaceOrder, as futures modify-order).
 *
 * Answers: `{orderId, clientOid, success, msg}`: the new order's id and newClientOid (null
 * when none was sent) with `success: "success"`; when the cancel happened but the new order
 * was refused (balance, band, a duplicate newClientOid), `success: "failure"`, `orderId`
 * null and the venue's message. The single endpoint answers an error that changed nothing
 * (unknown order, bad field) with the error envelope; a batch item carries it as its failure.
 * Spot TP/SL presets (`presetTakeProfitPrice`, …) are refused as on place-order (40020,
 * SPOT_TPSL_UNSUPPORTED), never dropped.
 */
import type { ReplaceOrder } from '../../domain/commands.ts';
import { CLIENT_OID_PATTERN } from '../../domain/order.ts';
import type { ReplaceResult } from '../../engine/trading/replace.ts';
import { asObject, optionalString, requiredDecimal, requiredString } from '../params.ts';
import { caller, reject, Rejected, type ApiRequest, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { submit } from './futures-service.ts';
import { failureText } from './order-input.ts';
import { refuseSpotTpsl } from './preset-input.ts';
import { signedRoutes } from './route-kit.ts';

const MAX_BATCH = 50;

type Replace = Omit<ReplaceOrder, 'type' | 'timeMs' | 'uid'>;

function parseReplace(item: unknown): Replace {
  const fields = asObject(item, 'order');
  const symbol = requiredString(fields, 'symbol').toUpperCase();
  const price = requiredDecimal(fields, 'price');
  const quantity = requiredDecimal(fields, 'size');
  refuseSpotTpsl(fields);
  const orderId = optionalString(fields, 'orderId');
  const clientOid = optionalString(fields, 'clientOid');
  if (!orderId && !clientOid) reject('PARAM_EMPTY', 'orderId');
  const newClientOid = optionalString(fields, 'newClientOid');
  if (newClientOid !== undefined && !CLIENT_OID_PATTERN.test(newClientOid))
    reject('PARAM_ERROR', 'newClientOid');
  return {
    order: { ...(orderId ? { orderId } : { clientOid: clientOid ?? '' }), symbol, category: 'SPOT' },
    price,
    quantity,
    ...(newClientOid ? { newClientOid } : {}),
  };
}

function answer(result: ReplaceResult, newClientOid: string | undefined) {
  if (!result.failure)
    return { orderId: result.orderId, clientOid: newClientOid ?? null, success: 'success', msg: null };
  return {
    orderId: null,
    clientOid: newClientOid ?? null,
    success: 'failure',
    msg: failureText(result.failure, 'v2-spot').msg,
  };
}

export function v2SpotReplaceRoutes(services: Services): Route[] {
  const route = signedRoutes({ dialect: 'v2-spot', accountMode: 'classic', area: 'spot' });
  const uidOf = (request: ApiRequest) => caller(request).account.uid;
  const replace = async (uid: string, parsed: Replace) => {
    const result = await submit<ReplaceResult>(services, {
      type: 'ReplaceOrder',
      timeMs: services.clock.now(),
      uid,
      ...parsed,
    });
    return answer(result, parsed.newClientOid);
  };
  /** A batch item: parsed and replaced on its own; what changed nothing is its failure. */
  const replaceItem = async (uid: string, item: unknown) => {
    const fields = item !== null && typeof item === 'object' ? (item as Record<string, unknown>) : {};
    const ids = {
      orderId: typeof fields.orderId === 'string' ? fields.orderId : null,
      clientOid: typeof fields.newClientOid === 'string' ? fields.newClientOid : null,
    };
    try {
      return await replace(uid, parseReplace(item));
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
      return { ...ids, success: 'failure', msg: failureText(error.failure, 'v2-spot').msg };
    }
  };

  return [
    route('POST', '/api/v2/spot/trade/cancel-replace-order', 5, true, (request) =>
      replace(uidOf(request), parseReplace(request.body)),
    ),
    route('POST', '/api/v2/spot/trade/batch-cancel-replace-order', 5, true, (request) => {
      const list = asObject(request.body).orderList;
      if (list === undefined || list === null) reject('PARAM_EMPTY', 'orderList');
      if (!Array.isArray(list)) reject('PARAM_ERROR', 'orderList');
      if (list.length === 0) reject('PARAM_EMPTY', 'orderList');
      if (list.length > MAX_BATCH) reject('BATCH_TOO_LARGE', String(MAX_BATCH));
      const uid = uidOf(request);
      // Submitted in the list's order: the sequencer runs them in that order.
      return Promise.all(list.map((item) => replaceItem(uid, item)));
    }),
  ];
}
