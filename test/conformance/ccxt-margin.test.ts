/**
 * ccxt's spot margin methods (ccxt-margin-cases.ts) on a classic account of a server at its
 * defaults (feed and liquidity provider on): crossed and isolated.
 */
import { test } from 'node:test';
import { CCXT_MARGIN_CASES } from './ccxt-margin-cases.ts';
import { ccxtContext, ccxtSuite } from './ccxt-context.ts';
import { CONCURRENCY, operatorFor, runCases, startDefaultsServer } from './harness.ts';

test(
  'ccxt bitget spot margin methods when driven on a classic account work',
  { concurrency: CONCURRENCY },
  async (t) => {
    const server = await startDefaultsServer();
    const suite = await ccxtSuite(server, operatorFor(server), 'classic');
    t.after(async () => {
      await Promise.all(suite.made.map((exchange) => exchange.close().catch(() => undefined)));
      await server.close();
    });
    await runCases(
      t,
      Object.entries(CCXT_MARGIN_CASES).map(([name, run]) => ({
        name,
        options: {},
        body: async () => run(await ccxtContext(suite)),
      })),
    );
  },
);
