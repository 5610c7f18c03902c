/** Every route the server serves: the venue API by spec section, and the operator API. */
import { adminRoutes } from '../../admin/routes.ts';
import type { Route } from '../request.ts';
import type { Services } from '../services.ts';
import { accountInfoRoutes } from './account-info.ts';
import { publicRoutes } from './public.ts';

export function allRoutes(services: Services): Route[] {
  return [...publicRoutes(services), ...accountInfoRoutes(), ...adminRoutes(services)];
}
