/**
 * Same-time comparison of two versions of bourse (not a benchmark table): the server of
 * another checkout (BENCH_OLD_TREE) and this one, both up at once, loaded alternately with
 * the place-batch entry body: per round a closed loop and a paced run at BENCH_RATE
 * requests/s (2,500: 50,000 orders/s), BENCH_REPS rounds; prints the medians. On a machine
 * whose speed drifts, this is the figure that says what a change did.
 *
 *   git worktree add /tmp/old <rev> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   BENCH_OLD_TREE=/tmp/old BENCH_REPS=5 npx tsx bench/support/ab-probe.ts
 *
 * BENCH_STORE=postgres runs both on PostgreSQL, each on a database of its own made for the run.
 * BENCH_OTHER_ENV and BENCH_THIS_ENV (JSON) add environment to either server: with
 * BENCH_OLD_TREE=. the same code is compared under two settings.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  benchDatabase,
  median,
  postgresSettingsLine,
  startBourseChild,
  type BourseChild,
} from './bourse-child.ts';
import { ORDERS_PER_REQUEST } from './order-batch.ts';
import { entryLoad } from './order-load.ts';

const oldTree = process.env.BENCH_OLD_TREE;
if (!oldTree) throw new Error('BENCH_OLD_TREE names the other checkout');
// The other checkout's own child starter runs its own src/main.ts.
const other = (await import(pathToFileURL(join(oldTree, 'bench/support/bourse-child.ts')).href)) as {
  startBourseChild: typeof startBourseChild;
};
const rate = Number(process.env.BENCH_RATE ?? 2_500);

const cleanups: (() => Promise<void>)[] = [];
const database = async () =>
  process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const envOf = (name: string) => JSON.parse(process.env[name] ?? '{}') as Record<string, string>;
const servers: [string, BourseChild][] = [
  ['other', await other.startBourseChild({ databaseUrl: await database(), env: envOf('BENCH_OTHER_ENV') })],
  ['this', await startBourseChild({ databaseUrl: await database(), env: envOf('BENCH_THIS_ENV') })],
];
const figures = new Map(
  servers.map(([name]) => [name, { closed: [] as number[], p50: [] as number[], p99: [] as number[] }]),
);
try {
  if (process.env.BENCH_STORE === 'postgres') process.stdout.write(`${postgresSettingsLine()}\n`);
  for (const [, child] of servers) await entryLoad(child, 0, 1_500);
  for (let round = 0; round < Number(process.env.BENCH_REPS ?? 5); round += 1) {
    for (const [name, child] of round % 2 === 0 ? servers : [...servers].reverse()) {
      const closed = await entryLoad(child, 0, 4_000);
      const paced = await entryLoad(child, rate, 4_000);
      const figure = figures.get(name);
      figure?.closed.push(closed.requestsPerSecond * ORDERS_PER_REQUEST);
      figure?.p50.push(paced.p50Ms);
      figure?.p99.push(paced.p99Ms);
      process.stderr.write(
        `${name}: closed ${Math.round(closed.requestsPerSecond * ORDERS_PER_REQUEST)} orders/s, ` +
          `at ${rate * ORDERS_PER_REQUEST} orders/s p50 ${paced.p50Ms.toFixed(1)} ms, p99 ${paced.p99Ms.toFixed(1)} ms\n`,
      );
    }
  }
  for (const [name, figure] of figures) {
    process.stdout.write(
      `${name}: closed loop median ${Math.round(median(figure.closed))} orders/s, ` +
        `at ${rate * ORDERS_PER_REQUEST} orders/s median p50 ${median(figure.p50).toFixed(1)} ms, ` +
        `p99 ${median(figure.p99).toFixed(1)} ms\n`,
    );
  }
} finally {
  for (const [, child] of servers) await child.stop();
  for (const cleanup of cleanups) await cleanup();
}
