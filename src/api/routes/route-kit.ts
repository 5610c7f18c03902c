/**
 * One way to declare signed routes: a factory per API family fixes the dialect, the account
 * mode of the venue's v2/v3 gate and the permission area, so a route line says only its
 * method, path, rate limit, whether it writes, and its handler.
 */
import type { PermissionArea } from '../../domain/account.ts';
import type { Dialect } from '../error-map.ts';
import type { Route } from '../request.ts';

export interface RouteFamily {
  dialect: Dialect;
  accountMode?: 'classic' | 'unified';
  /** Permission area; omitted: the routes need no particular permission. */
  area?: PermissionArea;
}

/** `access`: true/false = write/read of the family's area; or an explicit permission rule. */
export type Access = boolean | NonNullable<Route['permission']> | undefined;

export function signedRoutes(family: RouteFamily) {
  return (
    method: Route['method'],
    path: string,
    perSecond: number,
    access: Access,
    handler: Route['handler'],
  ): Route => {
    const permission =
      typeof access === 'boolean' ? (family.area ? { area: family.area, write: access } : undefined) : access;
    return {
      method,
      path,
      auth: 'signed',
      dialect: family.dialect,
      ...(family.accountMode ? { accountMode: family.accountMode } : {}),
      rateLimit: { perSecond, by: 'uid' },
      ...(permission ? { permission } : {}),
      handler,
    };
  };
}

/** A family whose POST routes write its area and whose GET routes read it. */
export function signedRoutesByMethod(family: RouteFamily) {
  const route = signedRoutes(family);
  return (method: Route['method'], path: string, perSecond: number, handler: Route['handler']): Route =>
    route(method, path, perSecond, method === 'POST', handler);
}
