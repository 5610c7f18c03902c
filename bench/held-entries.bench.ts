/**
 * Bytes of heap per order that durable entries keep while they wait for the projector (a
 * diagnostic, not a benchmark), on the place-batch workloads (20 BTCUSDT spot orders per
 * command, 5,000 commands from a live engine), measured as heap used after full collections:
 * the entries as the engine made them; with their order and fill views formatted (as the
 * WebSocket hub's book mirror formats them when the entries become durable, before the
 * projector takes them); the projection rows of those entries alone (projectionRowsOf); and
 * those rows as one JSON text per table. Needs --expose-gc:
 *
 *   node --expose-gc --import tsx bench/held-entries.bench.ts
 */
import { projectionRowsOf } from '../src/persistence/journal-record.ts';
import type { JournalEntry } from '../src/ports/store.ts';
import { placeBatchAppends, Recorder } from './support/journal-recorder.ts';
import { ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { fundedSpotAccounts } from './support/spot-setup.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const collect = gc;
const used = (): number => {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
};
const GROUPS = 100;
const PER_GROUP = 50;

for (const workload of ['entry', 'crossing'] as Workload[]) {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, 8);
  recorder.take();
  placeBatchAppends(recorder, uids, workload, 5, PER_GROUP);
  const orders = GROUPS * PER_GROUP * ORDERS_PER_REQUEST;
  const base = used();
  let groups: JournalEntry[][] | null = placeBatchAppends(recorder, uids, workload, GROUPS, PER_GROUP);
  const raw = used() - base;
  for (const group of groups)
    for (const entry of group)
      for (const event of entry.events) {
        if (event.type === 'OrderUpdated') void event.order;
        else if (event.type === 'FillRecorded') void event.fill;
      }
  const viewed = used() - base;
  let rows: unknown[][] | null = groups.map((group) => {
    const batch = projectionRowsOf(group);
    return batch.targets.map((target) => batch.rowsOf(target));
  });
  groups = null;
  const rowsAlone = used() - base;
  const texts = rows.map((tables) => tables.map((table) => JSON.stringify(table)));
  rows = null;
  const textsAlone = used() - base;
  const perOrder = (bytes: number) => (bytes / orders).toFixed(0);
  process.stdout.write(
    `${workload}: entries ${perOrder(raw)} B/order, with views ${perOrder(viewed)}, ` +
      `their rows alone ${perOrder(rowsAlone)}, as one JSON text per table ${perOrder(textsAlone)}` +
      ` (${texts.length} groups)\n`,
  );
}
