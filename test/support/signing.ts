/**
 * A client that signs exactly as the venue expects (wire.md §1.2–1.3):
 *   ACCESS-SIGN = base64(HMAC-SHA256(secret, timestamp + METHOD + path + ('?' + query) + body)).
 *
 * Two query styles, as the two clients build them:
 * - `bitget-api`: keys sorted, values percent-encoded (encodeURIComponent); the signed string
 *   and the sent string are the same.
 * - `ccxt`: keys sorted, the signed string holds the raw values, the sent string is
 *   percent-encoded (with the first `%24` turned back into `$`, as ccxt's urlencode does).
 *
 * Every piece of a request can be overridden, so auth tests can break one thing at a time.
 */
import { createHmac } from 'node:crypto';
import { send, type ApiResponse } from './http.ts';

export type SigningStyle = 'bitget-api' | 'ccxt';

export interface ApiCredentials {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

export function hmacBase64(secret: string, prehash: string): string {
  return createHmac('sha256', secret).update(prehash).digest('base64');
}

export function prehashOf(
  timestamp: string,
  method: string,
  path: string,
  signedQuery: string,
  body: string,
): string {
  return `${timestamp}${method.toUpperCase()}${path}${signedQuery ? `?${signedQuery}` : ''}${body}`;
}

/** The query a client sends and the query it signs, for `params` in the given style. */
export function queryFor(
  params: Record<string, string>,
  style: SigningStyle,
): { sent: string; signed: string } {
  const keys = Object.keys(params).sort();
  const encoded = keys.map((key) => `${key}=${encodeURIComponent(params[key] ?? '')}`).join('&');
  if (style === 'bitget-api') return { sent: encoded, signed: encoded };
  const raw = keys.map((key) => `${key}=${params[key] ?? ''}`).join('&');
  return { sent: encoded.replace('%24', '$'), signed: raw };
}

export interface SignedRequestOptions {
  /** Parameters (built in `style`), or a raw query string sent and signed as it is. */
  query?: Record<string, string> | string;
  /** JSON body: an object is serialised once, a string is sent as it is. */
  body?: unknown;
  style?: SigningStyle;
  timestamp?: string | number;
  /** Sign with this secret instead of the client's. */
  secret?: string;
  /** Send this ACCESS-SIGN instead of the computed one. */
  signature?: string;
  /** Header overrides; `undefined` removes a header. Applied after the auth headers. */
  headers?: Record<string, string | undefined>;
  /** How to spell the auth header names on the wire. */
  headerCase?: 'upper' | 'lower' | 'mixed';
}

export interface SignedRequest {
  url: string;
  init: RequestInit;
  signature: string;
}

function spell(name: string, headerCase: SignedRequestOptions['headerCase']): string {
  if (headerCase === 'lower') return name.toLowerCase();
  if (headerCase === 'mixed') return name.replace(/[A-Z]+/g, (word) => word[0] + word.slice(1).toLowerCase());
  return name;
}

export class SigningClient {
  constructor(
    readonly baseUrl: string,
    readonly credentials: ApiCredentials,
    readonly style: SigningStyle = 'bitget-api',
  ) {}

  build(method: string, path: string, options: SignedRequestOptions = {}): SignedRequest {
    const style = options.style ?? this.style;
    const query =
      typeof options.query === 'string'
        ? { sent: options.query, signed: options.query }
        : queryFor(options.query ?? {}, style);
    const body =
      options.body === undefined
        ? ''
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body);
    const timestamp = String(options.timestamp ?? Date.now());
    const signature =
      options.signature ??
      hmacBase64(
        options.secret ?? this.credentials.secretKey,
        prehashOf(timestamp, method, path, query.signed, body),
      );
    const headers: Record<string, string> = {};
    const put = (name: string, value: string | undefined) => {
      for (const existing of Object.keys(headers)) {
        if (existing.toLowerCase() === name.toLowerCase()) delete headers[existing];
      }
      if (value !== undefined) headers[name] = value;
    };
    put(spell('ACCESS-KEY', options.headerCase), this.credentials.apiKey);
    put(spell('ACCESS-SIGN', options.headerCase), signature);
    put(spell('ACCESS-TIMESTAMP', options.headerCase), timestamp);
    put(spell('ACCESS-PASSPHRASE', options.headerCase), this.credentials.passphrase);
    put('Content-Type', 'application/json');
    put('locale', 'en-US');
    for (const [name, value] of Object.entries(options.headers ?? {})) put(name, value);
    const url = `${this.baseUrl}${path}${query.sent ? `?${query.sent}` : ''}`;
    const init: RequestInit = { method, headers, ...(body !== '' ? { body } : {}) };
    return { url, init, signature };
  }

  request<T = unknown>(
    method: string,
    path: string,
    options: SignedRequestOptions = {},
  ): Promise<ApiResponse<T> & { signature: string }> {
    const built = this.build(method, path, options);
    return send<T>(built.url, built.init).then((response) => ({ ...response, signature: built.signature }));
  }

  get<T = unknown>(path: string, options: SignedRequestOptions = {}) {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, options: SignedRequestOptions = {}) {
    return this.request<T>('POST', path, options);
  }
}
