/**
 * What a route handler sees, and how the edge rejects a request. At the edge a rejection is
 * thrown (`Rejected`) so that parsing reads straight; the core never throws for outcomes.
 */
import type { Account, ApiKeyRecord, PermissionArea } from '../domain/account.ts';
import type { Failure } from '../domain/result-code.ts';
import type { Dialect } from './error-map.ts';

export class Rejected extends Error {
  constructor(
    readonly failure: Failure,
    readonly data: unknown = null,
  ) {
    super(failure.code);
  }
}

export function reject(code: Failure['code'], ...params: string[]): never {
  throw new Rejected(params.length > 0 ? { code, params } : { code });
}

/** Turns a core outcome into its value, or rejects with its failure. */
export function unwrap<T>(outcome: { ok: true; value: T } | ({ ok: false } & Failure)): T {
  if (outcome.ok) return outcome.value;
  throw new Rejected({ code: outcome.code, params: outcome.params ?? [] });
}

export interface Caller {
  account: Account;
  key: ApiKeyRecord;
}

export interface ApiRequest {
  method: string;
  path: string;
  /** Decoded query parameters (last value wins). */
  query: Record<string, string>;
  /** Parsed JSON body (undefined when empty). */
  body: unknown;
  ip: string;
  headers: Record<string, string | string[] | undefined>;
  /** Set on signed routes once authentication passed. */
  caller?: Caller;
}

export type Auth = 'public' | 'signed' | 'operator';

export interface RateLimitRule {
  perSecond: number;
  by: 'uid' | 'ip';
}

export interface PermissionRule {
  area: PermissionArea | readonly PermissionArea[];
  write: boolean;
}

export interface Route {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path; `:name` segments are parameters (operator routes only). */
  path: string;
  auth: Auth;
  dialect: Dialect;
  rateLimit?: RateLimitRule;
  /** Permission the key needs (any one of several areas when a list); a function when it
   * depends on the request (e.g. the categories in the body): every rule it returns must hold. */
  permission?: PermissionRule | ((request: ApiRequest) => PermissionRule | readonly PermissionRule[] | null);
  /** The account mode this API family belongs to (the venue's v2/v3 gate). */
  accountMode?: 'classic' | 'unified';
  handler: (request: ApiRequest, params: Record<string, string>) => unknown;
}

export function caller(request: ApiRequest): Caller {
  if (!request.caller) throw new Error('route declared signed but no caller was set');
  return request.caller;
}
