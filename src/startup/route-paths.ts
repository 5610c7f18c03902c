/**
 * The paths bourse rate-limits, read from the route table before the store is opened, so a
 * bad BOURSE_RATE_LIMITS stops a start at once rather than after a long recovery.
 *
 * Route factories only close over the services (handlers use them when a request comes), so
 * a stand-in that throws on any use is enough to list the routes. A factory that used the
 * services while building its routes would make every start fail here, loudly, not silently.
 */
import { allRoutes } from '../api/routes/index.ts';
import type { Services } from '../api/services.ts';

const unavailable = new Proxy({} as Services, {
  get(_target, name) {
    throw new Error(`route tables must not use services.${String(name)} while they are built`);
  },
});

export function rateLimitedPaths(): Set<string> {
  return new Set(
    allRoutes(unavailable)
      .filter((route) => route.rateLimit !== undefined)
      .map((route) => route.path),
  );
}
