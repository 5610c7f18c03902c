/**
 * Builders for engine tests: a fresh exchange with the default catalogue and index prices,
 * funded accounts, and terse order placement. They go through the production commands.
 */
import assert from 'node:assert/strict';
import type { Command, OrderRequest } from '../../src/domain/commands.ts';
import type { Category } from '../../src/domain/category.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';

export const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);

export class EngineHarness {
  readonly exchange = new Exchange();
  /** Every command run so far, in order (for replay checks). */
  readonly commands: Command[] = [];
  nowMs = T0;

  constructor() {
    for (const instrument of defaultCatalogue()) {
      this.ok({ type: 'AddInstrument', timeMs: this.nowMs, instrument });
      const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
      if (indexPrice) {
        this.ok({
          type: 'SetIndexPrice',
          timeMs: this.nowMs,
          category: instrument.category,
          symbol: instrument.symbol,
          indexPrice,
        });
      }
    }
  }

  get state() {
    return this.exchange.state;
  }

  run(command: Command) {
    this.commands.push(command);
    return this.exchange.execute(command);
  }

  ok<T = unknown>(command: Command): T {
    const { outcome } = this.run(command);
    assert.ok(
      outcome.ok,
      outcome.ok ? '' : `${command.type} failed: ${outcome.code} ${outcome.params?.join(' ') ?? ''}`,
    );
    return outcome.value as T;
  }

  account(
    funds: Record<string, string> = {},
    wallet = 'spot',
    mode: 'classic' | 'unified' = 'classic',
  ): string {
    const { uid } = this.ok<{ uid: string }>({
      type: 'CreateAccount',
      timeMs: this.nowMs,
      kind: 'main',
      parentUid: null,
      mode,
      label: '',
    });
    for (const [coin, amount] of Object.entries(funds)) {
      this.ok({
        type: 'Deposit',
        timeMs: this.nowMs,
        uid,
        coin,
        amount: parseMoney(amount) ?? 0n,
        wallet,
        subType: 'onchain',
      });
    }
    return uid;
  }

  place(uid: string, category: Category, ...items: (Partial<OrderRequest> & { quantity: string })[]) {
    const requests = items.map(orderItem);
    return this.ok<{ orderId: string; clientOid: string; code?: string }[]>({
      type: 'PlaceOrders',
      timeMs: this.nowMs,
      uid,
      category,
      items: requests,
    });
  }

  balance(uid: string, coin: string, wallet = 'spot') {
    const balance = this.state.balances.get(`${uid}|${wallet}|${coin}`);
    return {
      available: balance?.available ?? 0n,
      frozen: balance?.frozen ?? 0n,
      borrowed: balance?.borrowed ?? 0n,
      interest: balance?.interest ?? 0n,
      margin: balance?.margin ?? 0n,
    };
  }

  assertConserved(): void {
    assert.deepEqual(conservationImbalances(this.state), []);
  }
}

/** An order item: a good-till-cancelled BTCUSDT limit buy unless `item` says otherwise. */
export function orderItem(item: Partial<OrderRequest> & { quantity: string }): OrderRequest {
  return {
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    timeInForce: 'gtc',
    stpMode: 'none',
    ...item,
  };
}

export function money(text: string): bigint {
  const value = parseMoney(text.startsWith('-') ? text.slice(1) : text);
  assert.ok(value !== null, `bad money ${text}`);
  return text.startsWith('-') ? -value : value;
}

/**
 * Replays everything `harness` ran on a fresh engine as recovery does (`Exchange.replay`, no
 * events) and checks it reaches the same state and the same outcomes.
 */
export function assertReplaysExactly(harness: EngineHarness): void {
  const live = new Exchange();
  const replay = new Exchange();
  for (const command of harness.commands) {
    assert.deepEqual(replay.replay(command), live.execute(command).outcome, command.type);
  }
  assert.equal(stateHash(replay.state), stateHash(harness.state));
}
