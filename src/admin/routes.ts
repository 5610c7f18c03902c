/**
 * The operator API (docs/operator.md): prices, instruments, the clock and the reset here;
 * accounts, keys, an account's activity and the broker features in the files beside.
 * Bearer-token authenticated; same envelope as the venue API.
 */
import { CATEGORIES } from '../domain/category.ts';
import type { Instrument } from '../domain/instrument.ts';
import { asObject, requiredEnum, requiredString } from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';
import { instrumentRow } from '../api/wire/instrument.ts';
import { accountRoutes } from './account-routes.ts';
import { activityRoutes } from './activity-routes.ts';
import { brokerageAdminRoutes } from './brokerage-routes.ts';
import { walletAdminRoutes } from './wallet-routes.ts';
import { keyRoutes } from './key-routes.ts';
import { ledgerRoutes } from './ledger-routes.ts';
import { marketRoutes } from './market-routes.ts';
import { parseInstrumentFields } from './instrument-input.ts';

export function adminRoutes(services: Services): Route[] {
  const now = () => services.clock.now();
  const submit = <T>(command: Parameters<typeof services.sequencer.submit>[0]) =>
    services.sequencer.submit<T>(command).then(unwrap);
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });

  return [
    route('PUT', '/admin/v1/prices', async (request) => {
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const indexPrice = requiredString(body, 'indexPrice');
      await submit({ type: 'SetIndexPrice', timeMs: now(), category, symbol, indexPrice });
      return { category, symbol, indexPrice };
    }),
    route('PUT', '/admin/v1/funding-rates', async (request) => {
      // Fixes a perpetual's funding rate (a signed decimal per interval); null goes back to the
      // rate computed from the premium.
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const rate = body.rate === null ? null : requiredString(body, 'rate');
      await submit({ type: 'SetFundingRate', timeMs: now(), category, symbol, rate });
      return { category, symbol, rate };
    }),
    route('GET', '/admin/v1/instruments', (request) => {
      const category = request.query.category?.toUpperCase();
      return [...services.sequencer.exchange.state.instruments.values()]
        .filter((instrument) => !category || instrument.category === category)
        .map(instrumentRow);
    }),
    route('POST', '/admin/v1/instruments', async (request) => {
      const instrument = parseInstrumentFields(asObject(request.body), true) as Instrument;
      return instrumentRow(await submit<Instrument>({ type: 'AddInstrument', timeMs: now(), instrument }));
    }),
    route('PATCH', '/admin/v1/instruments', async (request) => {
      const body = asObject(request.body);
      const category = requiredEnum(body, 'category', CATEGORIES);
      const symbol = requiredString(body, 'symbol').toUpperCase();
      const changes = parseInstrumentFields(body, false);
      const patched = await submit<Instrument>({
        type: 'PatchInstrument',
        timeMs: now(),
        category,
        symbol,
        changes,
      });
      return instrumentRow(patched);
    }),
    route('GET', '/admin/v1/clock', () => ({
      mode: services.clock.simulated ? 'simulated' : 'real',
      nowMs: String(services.clock.now()),
      engineTimeMs: String(services.sequencer.exchange.state.nowMs),
    })),
    route('POST', '/admin/v1/clock/advance', async (request) => {
      if (!services.clock.simulated) reject('CLOCK_NOT_SIMULATED', 'BOURSE_CLOCK');
      const body = asObject(request.body);
      const msText = requiredString(body, 'ms');
      if (!/^\d{1,12}$/.test(msText)) reject('PARAM_ERROR', 'ms');
      const ms = Number(msText);
      const result = services.timeWalker
        ? unwrap(await services.timeWalker.advance(ms))
        : await submit<{ nowMs: number }>({ type: 'AdvanceClock', timeMs: now(), ms });
      return { mode: 'simulated', nowMs: String(result.nowMs) };
    }),
    route('POST', '/admin/v1/reset', async (request) => {
      // Nothing to choose: the first-start state comes from the settings (docs/operator.md).
      const body = asObject(request.body);
      if (Object.keys(body).length > 0) reject('PARAM_ERROR', Object.keys(body)[0] ?? 'body');
      if (!services.reset) reject('SERVICE_RESETTING');
      return services.reset();
    }),
    ...accountRoutes(services),
    ...keyRoutes(services),
    ...activityRoutes(services),
    ...brokerageAdminRoutes(services),
    ...walletAdminRoutes(services),
    ...ledgerRoutes(services),
    ...marketRoutes(services),
  ];
}
