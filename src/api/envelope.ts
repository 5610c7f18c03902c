/** The venue's envelope: {code, msg, requestTime, data}; code a string, requestTime a number. */
export interface Envelope {
  code: string;
  msg: string;
  requestTime: number;
  data: unknown;
}

export function success(data: unknown, requestTime: number): Envelope {
  return { code: '00000', msg: 'success', requestTime, data: data === undefined ? null : data };
}

export function failure(code: string, msg: string, requestTime: number, data: unknown = null): Envelope {
  return { code, msg, requestTime, data };
}
