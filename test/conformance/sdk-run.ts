/**
 * Runs every SDK method of the inventory in the covered families for one client: one subtest
 * per method, each on a fresh account (classic for RestClientV2, unified for RestClientV3).
 * Out-of-scope methods are skipped with their reason, pending ones run as todos, and a method
 * without a verdict fails.
 */
import type { TestContext } from 'node:test';
import { operatorFor, runCases, startDefaultsServer, type CaseRun } from './harness.ts';
import { sdkInventory, type SdkClient } from './inventory.ts';
import { SDK_V2_CASES, SDK_V3_CASES } from './sdk-cases.ts';
import { sdkSuite, v2Context, v3Context, type SdkSuite } from './sdk-context.ts';
import type { Entry } from './verdict.ts';

function runsOf<C>(
  client: SdkClient,
  cases: Readonly<Record<string, Entry<C>>>,
  contextOf: () => Promise<C>,
): CaseRun[] {
  return sdkInventory()
    .filter((method) => method.client === client && method.family !== 'outside')
    .map(({ name, endpoint }) => {
      const title = `${name} (${endpoint})`;
      const entry = cases[name];
      if (!entry) {
        const error = new Error(`${client}.${name} is unclassified: give it a verdict in test/conformance`);
        return { name: title, options: {}, body: () => Promise.reject(error) };
      }
      const verdict = 'classic' in entry ? entry.classic : entry;
      if ('outOfScope' in verdict)
        return { name: title, options: { skip: verdict.outOfScope }, body: async () => {} };
      const run = verdict.run;
      const options = 'pending' in verdict ? { todo: `pending (${verdict.pending}): ${verdict.why}` } : {};
      return {
        name: title,
        options,
        body: async () => {
          if (!run) throw new Error('not served yet');
          await run(await contextOf());
        },
      };
    });
}

export async function runSdkSuite(t: TestContext, client: SdkClient): Promise<void> {
  const server = await startDefaultsServer();
  t.after(() => server.close());
  const suite: SdkSuite = await sdkSuite(server, operatorFor(server));
  const runs =
    client === 'RestClientV2'
      ? runsOf(client, SDK_V2_CASES, () => v2Context(suite))
      : runsOf(client, SDK_V3_CASES, () => v3Context(suite));
  await runCases(t, runs);
}
