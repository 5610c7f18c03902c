/** Public, unsigned endpoints of the foundation: server time and the instrument list. */
import { parseCategory, V3_CATEGORIES } from '../../domain/category.ts';
import { reject, type Route } from '../request.ts';
import type { Services } from '../services.ts';
import { instrumentRow } from '../wire/instrument.ts';

export function publicRoutes(services: Services): Route[] {
  // serverTime is wall time even when the engine clock is simulated: clients sync the
  // ACCESS-TIMESTAMP they sign with it, and signatures are checked against wall time.
  const serverTime = () => ({ serverTime: String(services.wallNow()) });
  return [
    {
      method: 'GET',
      path: '/api/v2/public/time',
      auth: 'public',
      dialect: 'v2',
      rateLimit: { perSecond: 20, by: 'ip' },
      handler: serverTime,
    },
    {
      method: 'GET',
      path: '/api/v3/public/time',
      auth: 'public',
      dialect: 'v3',
      rateLimit: { perSecond: 20, by: 'ip' },
      handler: serverTime,
    },
    {
      method: 'GET',
      path: '/api/v3/market/instruments',
      auth: 'public',
      dialect: 'v3',
      rateLimit: { perSecond: 20, by: 'ip' },
      handler: (request) => {
        const categoryText = request.query.category;
        if (!categoryText) reject('PARAM_EMPTY', 'category');
        const category = parseCategory(categoryText, V3_CATEGORIES);
        if (!category) reject('PARAM_ERROR', 'category');
        const symbol = request.query.symbol?.toUpperCase();
        const rows = [...services.sequencer.exchange.state.instruments.values()]
          .filter(
            (instrument) => instrument.category === category && (!symbol || instrument.symbol === symbol),
          )
          .map(instrumentRow);
        if (symbol && rows.length === 0) reject('SYMBOL_NOT_FOUND', symbol);
        return rows;
      },
    },
  ];
}
