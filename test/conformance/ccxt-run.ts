/**
 * Runs every ccxt method of the inventory on one account kind: one subtest per method, each on
 * an account of its own. Out-of-scope methods are skipped with their reason; pending ones run as
 * todos (their failure does not fail the suite); a method without a verdict fails.
 */
import type { TestContext } from 'node:test';
import { CCXT_CASES } from './ccxt-cases.ts';
import { ccxtContext, ccxtSuite } from './ccxt-context.ts';
import { operatorFor, runCases, startDefaultsServer, type CaseRun } from './harness.ts';
import { ccxtInventory } from './inventory.ts';
import { verdictFor, type AccountKind } from './verdict.ts';

export async function runCcxtSuite(t: TestContext, kind: AccountKind): Promise<void> {
  const server = await startDefaultsServer();
  const suite = await ccxtSuite(server, operatorFor(server), kind);
  t.after(async () => {
    await Promise.all(suite.made.map((exchange) => exchange.close().catch(() => undefined)));
    await server.close();
  });
  const { rest, pro } = ccxtInventory();
  const runs: CaseRun[] = [...rest, ...pro].map((method) => {
    const entry = CCXT_CASES[method];
    if (!entry) {
      return {
        name: method,
        options: {},
        body: () =>
          Promise.reject(new Error(`${method} is unclassified: give it a verdict in test/conformance`)),
      };
    }
    const verdict = verdictFor(entry, kind);
    if ('outOfScope' in verdict)
      return { name: method, options: { skip: verdict.outOfScope }, body: async () => {} };
    const run = verdict.run;
    const options = 'pending' in verdict ? { todo: `pending (${verdict.pending}): ${verdict.why}` } : {};
    return {
      name: method,
      options,
      body: async () => {
        if (!run) throw new Error('not served yet');
        await run(await ccxtContext(suite));
      },
    };
  });
  await runCases(t, runs);
}
