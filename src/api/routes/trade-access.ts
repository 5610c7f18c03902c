/**
 * Trading permissions per category (40014; 25620 on v3). A key acts only on orders of the
 * categories its permission codes cover: `stow`/`stor` SPOT, `smow`/`smor` MARGIN,
 * `coow`/`coor` the futures categories; a write code also reads.
 *
 * Two checks, both needed:
 * - the route rule, at authentication: the area of every category the request names (each
 *   body item's and the query's), or any trading area when it names none;
 * - in the handler, for a request that names no category: the category of each open order it
 *   acts on, looked up in the same synchronous step as the engine command that acts on it
 *   (so the order cannot change in between), and the target is pinned to that category so
 *   the engine acts on nothing else; lists are restricted to the categories the key reads.
 */
import { hasPermission } from '../../domain/account.ts';
import { parseCategory, V3_CATEGORIES, type Category } from '../../domain/category.ts';
import type { OrderReference } from '../../domain/commands.ts';
import { findOpenOrder } from '../../engine/trading/cancel.ts';
import type { Fields } from '../params.ts';
import { caller, reject, type ApiRequest, type PermissionRule } from '../request.ts';
import type { Services } from '../services.ts';
import { permissionAreaOf } from './trading-service.ts';

const TRADE_AREAS = ['spot', 'margin', 'futures_orders'] as const;

/** The v3 categories a request names: each body item's (one object or a list) and the query's. */
export function namedCategories(request: ApiRequest): Category[] {
  const items: unknown[] = Array.isArray(request.body) ? request.body : [request.body];
  const texts = items.map((item) =>
    item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Fields).category : undefined,
  );
  texts.push(request.query.category);
  const found = new Set<Category>();
  // A batch's items mostly name the same category: each text is read once.
  let previous: unknown;
  for (const text of texts) {
    if (text === previous) continue;
    previous = text;
    const category = typeof text === 'string' ? parseCategory(text, V3_CATEGORIES) : null;
    if (category) found.add(category);
  }
  return [...found];
}

/** The route rule: every named category's area, else any trading area. */
export const tradeRule =
  (write: boolean, named: (request: ApiRequest) => Category[] = namedCategories) =>
  (request: ApiRequest): PermissionRule[] => {
    const categories = named(request);
    if (categories.length === 0) return [{ area: TRADE_AREAS, write }];
    return categories.map((category) => ({ area: permissionAreaOf(category), write }));
  };

/** Whether the key may write (or read) `category`; a name that is no category: never. */
export function mayTrade(request: ApiRequest, category: string, write: boolean): boolean {
  const known = parseCategory(category);
  return known !== null && hasPermission(caller(request).key.permissions, permissionAreaOf(known), write);
}

export function requireTrade(request: ApiRequest, category: string, write: boolean): void {
  if (!mayTrade(request, category, write)) reject('PERMISSION_DENIED', write ? 'read and write' : 'read');
}

/** The v3 categories whose orders and fills the key may read. */
export function readableCategories(request: ApiRequest): Category[] {
  return V3_CATEGORIES.filter((category) => mayTrade(request, category, false));
}

/**
 * `target` once the key may write the category of the open order it names, pinned to that
 * category. Call it in the same synchronous step as the command that acts on the order. A
 * target that names no open order stays as it is: the engine answers it not found.
 */
export function writableTarget(
  services: Services,
  request: ApiRequest,
  target: OrderReference,
): OrderReference {
  if (target.category) {
    requireTrade(request, target.category, true);
    return target;
  }
  const order = findOpenOrder(services.sequencer.exchange.state, caller(request).account.uid, target);
  if (!order) return target;
  requireTrade(request, order.category, true);
  return { ...target, category: order.category };
}
