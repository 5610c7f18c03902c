/**
 * A live engine whose commands are kept as journal entries with their events (what a store's
 * append or the projector receives), and the items of one place-batch request as the route
 * parses them (bench/support/order-batch.ts describes the workloads): for the benches that
 * measure what happens to entries after the engine, without HTTP.
 */
import type { Command, OrderRequest } from '../../src/domain/commands.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import type { JournalEntry } from '../../src/ports/store.ts';
import { ORDERS_PER_REQUEST, type Workload } from './order-batch.ts';

export class Recorder {
  readonly exchange = new Exchange();
  entries: JournalEntry[] = [];
  seq = 0;
  timeMs = Date.UTC(2026, 10, 1);

  /** Runs `command`; a refused command or item stops the bench (its figures would be wrong). */
  run(command: Command): unknown {
    const { outcome, events } = this.exchange.execute(command);
    if (!outcome.ok) throw new Error(`${command.type} failed: ${outcome.code}`);
    const refused =
      Array.isArray(outcome.value) && outcome.value.find((item: { code?: string }) => item.code);
    if (refused) throw new Error(`${command.type} item refused: ${JSON.stringify(refused)}`);
    this.seq += 1;
    this.entries.push({ seq: this.seq, command, events });
    return outcome.value;
  }

  tick(): number {
    return (this.timeMs += 1);
  }

  /** The entries recorded since the last call. */
  take(): JournalEntry[] {
    const entries = this.entries;
    this.entries = [];
    return entries;
  }
}

/**
 * `count` groups of `perGroup` place-batch commands of `workload` each, run on `recorder` by
 * the accounts `uids` in turn: the entries one append (or one projector batch) receives.
 */
export function placeBatchAppends(
  recorder: Recorder,
  uids: readonly string[],
  workload: Workload,
  count: number,
  perGroup: number,
): JournalEntry[][] {
  const groups: JournalEntry[][] = [];
  for (let index = 0; index < count; index += 1) {
    for (let command = 0; command < perGroup; command += 1) {
      const uid = uids[(index * perGroup + command) % uids.length] as string;
      recorder.run({
        type: 'PlaceOrders',
        timeMs: recorder.tick(),
        uid,
        category: 'SPOT',
        items: placeBatchItems(workload),
      });
    }
    groups.push(recorder.take());
  }
  return groups;
}

/**
 * One place-batch request's items: `entry`, immediate-or-cancel orders away from an empty
 * book; `crossing`, buy/sell pairs at one price, each sell filling the buy before it.
 */
export function placeBatchItems(workload: Workload): OrderRequest[] {
  const list: OrderRequest[] = [];
  for (let pair = 0; pair < ORDERS_PER_REQUEST / 2; pair += 1) {
    for (const side of ['buy', 'sell'] as const) {
      const price = workload === 'crossing' ? '60000' : side === 'buy' ? '59000' : '61000';
      list.push({
        symbol: 'BTCUSDT',
        side,
        orderType: 'limit',
        timeInForce: workload === 'crossing' ? 'gtc' : 'ioc',
        stpMode: 'none',
        price,
        quantity: '0.0001',
      });
    }
  }
  return list;
}
