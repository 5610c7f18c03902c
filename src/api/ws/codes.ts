/**
 * The venue's WebSocket error codes (the numbers ccxt maps). Errors go out as
 * {"event":"error","code":<number>,"msg":…} (plus the offending `arg` for a subscription), the
 * shape both bitget-api and ccxt parse.
 */
export const WS_CODES = {
  CHANNEL_NOT_FOUND: 30001,
  ILLEGAL_REQUEST: 30002,
  INVALID_OP: 30003,
  NOT_LOGGED_IN: 30004,
  LOGIN_FAILED: 30005,
  TOO_MANY_REQUESTS: 30006,
  REQUEST_OVER_LIMIT: 30007,
  INVALID_ACCESS_KEY: 30011,
  INVALID_PASSPHRASE: 30012,
  INVALID_TIMESTAMP: 30013,
  TIMESTAMP_EXPIRED: 30014,
  INVALID_SIGN: 30015,
  PARAM_ERROR: 30016,
} as const;

export type WsCode = (typeof WS_CODES)[keyof typeof WS_CODES];

export interface WsError {
  code: WsCode;
  msg: string;
}

export function wsError(code: WsCode, msg: string): WsError {
  return { code, msg };
}
