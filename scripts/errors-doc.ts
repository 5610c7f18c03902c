/**
 * Generates docs/errors.md from the one result-code table (src/domain/result-code.ts) and its
 * mapping to the venue's wire codes (src/api/error-map.ts). `npx tsx scripts/errors-doc.ts`
 * (or `npm run errors:doc`) rewrites the file; test/api/error-map.test.ts regenerates it in
 * memory and fails when the committed file differs.
 *
 * A new result code needs no change here: it appears with its wire codes. A line in
 * MEANINGS says when the code is used; a code without one is listed with an empty cell.
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_MAP, type Dialect } from '../src/api/error-map.ts';
import { RESULT_CODES, type ResultCode } from '../src/domain/result-code.ts';

const DIALECTS: readonly Dialect[] = ['v2', 'v2-spot', 'v2-mix', 'v3', 'admin'];

const DIALECT_NAMES: Record<Dialect, string> = {
  v2: 'v2 common (`/api/v2/public`, `/api/v2/user`, …)',
  'v2-spot': 'v2 spot and margin (`/api/v2/spot`, `/api/v2/margin`)',
  'v2-mix': 'v2 futures (`/api/v2/mix`)',
  v3: 'v3 unified account (`/api/v3`)',
  admin: 'operator API (`/admin/v1`)',
};

const MEANINGS: Partial<Record<ResultCode, string>> = {
  PATH_NOT_FOUND: 'No route for this method and path.',
  API_V1_DECOMMISSIONED: 'A v1 path (`/api/spot/v1`, `/api/mix/v1`, `/api/margin/v1`).',
  BODY_NOT_JSON: 'The body is not valid JSON.',
  BODY_TOO_LARGE: 'The body is over 1 MiB.',
  CONTENT_TYPE_INVALID: 'A body was sent with a Content-Type that is not JSON.',
  PARAM_INVALID: 'The body or a field has the wrong shape (e.g. an array where an object is expected).',
  PARAM_EMPTY: 'A required parameter is missing or empty; `{0}` names it.',
  PARAM_ERROR: 'A parameter has a wrong type or value, or an unknown enum value; `{0}` names it.',
  PARAM_NOT_EXIST: 'A parameter names something that does not exist.',
  ACCESS_KEY_EMPTY: 'The ACCESS-KEY header is present but empty.',
  ACCESS_SIGN_EMPTY: 'The ACCESS-SIGN header is missing or empty.',
  ACCESS_PASSPHRASE_EMPTY: 'The ACCESS-PASSPHRASE header is missing or empty.',
  ACCESS_TIMESTAMP_INVALID: 'ACCESS-TIMESTAMP is missing or not a whole number of milliseconds.',
  ACCESS_TIMESTAMP_EXPIRED: 'ACCESS-TIMESTAMP is more than 30 s away from the server wall time.',
  API_KEY_INVALID: 'The ACCESS-KEY header is missing, or names no key.',
  PASSPHRASE_INCORRECT: 'The passphrase does not match the key.',
  IP_NOT_WHITELISTED: 'The key has an IP whitelist and the client address is not on it.',
  SIGNATURE_INVALID: 'ACCESS-SIGN does not match any accepted form of the request.',
  PERMISSION_DENIED: 'The key lacks the permission the endpoint needs; `{0}` says which.',
  USER_STATUS_ABNORMAL: 'The account, or the API key (operator freeze), is frozen or otherwise not usable.',
  CLASSIC_ACCOUNT_ON_UNIFIED_API: 'A classic account called a v3 (unified account) endpoint.',
  UNIFIED_ACCOUNT_ON_CLASSIC_API:
    'A unified account called a v2 endpoint while BOURSE_ENFORCE_ACCOUNT_MODE is on.',
  RATE_LIMITED: 'Over the per-UID or per-IP limit of the endpoint (BOURSE_RATE_LIMITS).',
  AUTH_FAILURES_LIMITED:
    'Too many failed passphrase checks for this key or from this IP in the last minute (BOURSE_AUTH_FAILURES_PER_KEY, BOURSE_AUTH_FAILURES_PER_IP).',
  SYSTEM_ERROR: 'An unexpected error (a bug); the request changed nothing that was acknowledged.',
  STORE_UNAVAILABLE: 'The journal could not be written; the outcome is unknown, query before retrying.',
  SERVICE_RESETTING:
    'The operator is resetting the venue (POST /admin/v1/reset): nothing was done; retry in a moment.',
  SERVER_NOT_READY:
    'The server is starting (recovering its store) or stopping; the request was not run, retry it (docs/configuration.md).',
  OPERATOR_UNAUTHORIZED: 'Operator API without `Authorization: Bearer <operator token>`, or a wrong token.',
  ACCOUNT_NOT_FOUND: 'No account with this uid.',
  INSUFFICIENT_BALANCE: 'The available balance does not cover the amount.',
  COIN_NOT_FOUND: 'The coin is not a base, quote or margin coin of any instrument.',
  SYMBOL_NOT_FOUND: 'No instrument with this symbol in this category.',
  INSTRUMENT_EXISTS: 'An instrument with this category and symbol already exists.',
  CLOCK_NOT_SIMULATED: 'The clock can only be advanced when BOURSE_CLOCK=simulated.',
  TRANSFER_EXCEEDS_MAXIMUM:
    'A transfer out of a margin wallet with debt would take its risk ratio to the warning ratio or above.',
  IP_BINDING_REQUIRED:
    'A sub-account management endpoint was called with a main-account key that is not bound to an IP.',
  FUNDING_NOT_PENDING: 'Operator: the deposit or withdrawal record is unknown or no longer pending.',
  QUOTE_EXPIRED: 'A convert trade came after its quote expired (quotes live 8 seconds).',
  SYMBOL_NOT_OPEN: 'The instrument is `listed` (not yet open).',
  SYMBOL_OFFLINE: 'The instrument is `offline` or `limit_open`, or past its offTime / limitOpenTime.',
  SYMBOL_RESTRICTED: 'The instrument is `restricted` (no API trading).',
  PRICE_PRECISION_INVALID: 'The price has more decimals than pricePrecision.',
  PRICE_STEP_INVALID: 'The price is not a multiple of the tick (futures priceMultiplier).',
  QUANTITY_PRECISION_INVALID: 'The quantity (or market-buy amount) has more decimals than allowed.',
  QUANTITY_STEP_INVALID: 'The futures quantity is not a multiple of quantityMultiplier.',
  QUANTITY_BELOW_MINIMUM: 'Below minOrderQty.',
  QUANTITY_ABOVE_MAXIMUM: 'Above maxOrderQty (limit) or maxMarketOrderQty (market).',
  AMOUNT_BELOW_MINIMUM: 'The order value is below minOrderAmount.',
  PRICE_ABOVE_LIMIT: 'A buy above the reference price × (1 + buyLimitPriceRatio).',
  PRICE_BELOW_LIMIT: 'A sell below the reference price × (1 − sellLimitPriceRatio).',
  TOO_MANY_OPEN_ORDERS: '400 open orders per business line, or maxSymbolOrderNum per symbol.',
  DUPLICATE_CLIENT_OID: 'The clientOid was used by this account within six hours.',
  CLIENT_OID_TOO_LONG: 'A client order id (`{0}`) longer than 50 characters.',
  BATCH_TOO_LARGE: 'More than 20 (v3) or 50 (v2) orders in one batch.',
  ORDER_NOT_FOUND:
    'Cancel or modify: no open order (or no order) of this account with that orderId / clientOid.',
  ORDER_QUERY_NOT_FOUND: 'Order detail: no order of this account with that orderId / clientOid.',
  ORDER_NOT_MODIFIABLE:
    'Modify of a filled, cancelled, market or reduce-only order, or a new size not above the filled size.',
  MODIFY_PENDING: 'A second modify of the same order before the first is durable.',
  MODIFY_UNCHANGED: 'Modify with the price and size the order already has.',
  TIME_RANGE_INVALID: 'A query window over its maximum span or older than the history kept.',
  SPOT_TPSL_UNSUPPORTED:
    'Margin order with TP/SL presets (takeProfit, …), spot presets on cancel-replace-order or v3 modify-order, or a spot TP/SL order (tpslType=tpsl, triggerPrice on place-order): refused, never dropped (spot orders take presets on place-order; spot trigger orders are place-plan-order).',
  FIELD_UNSERVED:
    'A field bourse does not serve on that endpoint, refused rather than ignored: a margin trigger order or a spot trailing stop on v3 place-order, a trigger in a v3 place-batch, TP/SL on a spot trigger order or a trailing stop; the message says why.',
  NO_DEBT: 'Repay of a coin that has no debt.',
  OPEN_SIZE_EXCEEDED: 'Not enough free margin for the opening reserve, or the position limit per symbol.',
  POSITION_INSUFFICIENT: 'A close larger than the position (or its size not locked by other closes).',
  POSITION_MODE_MISMATCH:
    'Hedge-mode fields in one-way mode or the reverse (e.g. no tradeSide in hedge mode).',
  POSITION_OR_ORDER_EXISTS: 'Position mode change while positions or orders exist.',
  MARGIN_MODE_LOCKED: 'Margin mode change while the symbol has positions or orders.',
  LEVERAGE_INVALID: 'Leverage outside minLeverage..maxLeverage.',
  MARGIN_MODE_MISMATCH: "The order's marginMode differs from the symbol's setting.",
  REDUCE_ONLY_REPLACED: 'Reserved: a reduce-only order replaced older ones (answered with orderId null).',
  NO_POSITION_TO_CLOSE: 'close-positions found no open position of the product line (symbol, side) asked.',
};

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function renderErrorsDoc(): string {
  const lines: string[] = [
    '# Errors',
    '',
    '<!-- Generated by scripts/errors-doc.ts from src/domain/result-code.ts and src/api/error-map.ts.',
    '     Do not edit by hand: run `npx tsx scripts/errors-doc.ts` (npm run errors:doc). -->',
    '',
    'Every response is the venue envelope `{code, msg, requestTime, data}`; `code` is a string,',
    '`"00000"` on success. Inside, bourse has one vocabulary of result codes; each maps to the',
    "venue's wire code, message and HTTP status. Some conditions have a different wire code per API",
    'family (the venue answers insufficient balance with 43012 on spot, 40762 on futures and 25202',
    'on the unified API); those rows list each family. `{0}` in a message is filled with the',
    'parameter or detail named in the table.',
    '',
    'API families:',
    '',
    ...DIALECTS.map((dialect) => `- \`${dialect}\`: ${DIALECT_NAMES[dialect]}`),
    '',
    '| Result code | API family | Wire code | HTTP | Message | When |',
    '|---|---|---|---|---|---|',
  ];
  for (const resultCode of RESULT_CODES) {
    if (resultCode === 'OK') {
      lines.push('| `OK` | all | `00000` | 200 | success | The request succeeded. |');
      continue;
    }
    const entry = ERROR_MAP[resultCode];
    const meaning = cell(MEANINGS[resultCode] ?? '');
    const overrides = DIALECTS.filter((dialect) => entry[dialect] !== undefined);
    const others =
      overrides.length > 0 ? `all but ${overrides.map((name) => `\`${name}\``).join(', ')}` : 'all';
    lines.push(
      `| \`${resultCode}\` | ${others} | \`${entry.code}\` | ${entry.http} | ${cell(entry.msg)} | ${meaning} |`,
    );
    for (const dialect of overrides) {
      const wire = entry[dialect];
      if (!wire) continue;
      lines.push(
        `| \`${resultCode}\` | \`${dialect}\` | \`${wire.code}\` | ${wire.http} | ${cell(wire.msg)} | |`,
      );
    }
  }
  lines.push(
    '',
    '## Wire codes',
    '',
    'The same list by wire code, for a client that receives one.',
    '',
    '| Wire code | HTTP | Result codes |',
    '|---|---|---|',
  );
  const byWire = new Map<string, { http: Set<number>; codes: Set<string> }>();
  const note = (code: string, http: number, resultCode: string) => {
    const row = byWire.get(code) ?? { http: new Set<number>(), codes: new Set<string>() };
    row.http.add(http);
    row.codes.add(resultCode);
    byWire.set(code, row);
  };
  note('00000', 200, 'OK');
  for (const resultCode of RESULT_CODES) {
    if (resultCode === 'OK') continue;
    const entry = ERROR_MAP[resultCode];
    note(entry.code, entry.http, resultCode);
    for (const dialect of DIALECTS) {
      const wire = entry[dialect];
      if (wire) note(wire.code, wire.http, `${resultCode} (${dialect})`);
    }
  }
  const wireCodes = [...byWire.keys()].sort((a, b) => Number(a) - Number(b) || (a < b ? -1 : 1));
  for (const code of wireCodes) {
    const row = byWire.get(code);
    if (!row) continue;
    const codes = [...row.codes].map((name) => `\`${name}\``).join(', ');
    lines.push(`| \`${code}\` | ${[...row.http].join(', ')} | ${codes} |`);
  }
  lines.push('');
  return lines.join('\n');
}

export const ERRORS_DOC_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(ERRORS_DOC_PATH, renderErrorsDoc());
  process.stdout.write(`wrote ${ERRORS_DOC_PATH}\n`);
}
