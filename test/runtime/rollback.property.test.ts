/**
 * Throws injected at random points inside the engine (the k-th Map write of a command's
 * execution: in the clock jobs before it, in the command, or in the plan evaluation after it)
 * while a random stream of trading, transfers, funding times and clock moves goes through the
 * sequencer onto a real SQLite store. After every thrown command the live state equals a
 * shadow engine that never saw it; conservation holds throughout; at the end the store
 * recovers to the live state, and its bills are exactly those a replay of its journal from
 * scratch writes (no bill of a clock job lost with a thrown command). Seeded.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Command, OrderRequest } from '../../src/domain/commands.ts';
import { parseMoney } from '../../src/domain/money.ts';
import type { Outcome } from '../../src/domain/result-code.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import type { Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { Sequencer } from '../../src/runtime/sequencer.ts';
import { Random } from '../support/random.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

const T0 = Date.UTC(2026, 10, 1);
const FUNDING_MS = 8 * 60 * 60 * 1000;
const UIDS = ['1000000001', '1000000002', '1000000003'];
const money = (text: string) => parseMoney(text) ?? 0n;

function opening(timeMs: number): Command[] {
  const commands: Command[] = [];
  for (const instrument of defaultCatalogue()) {
    commands.push({ type: 'AddInstrument', timeMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin];
    const { category, symbol } = instrument;
    if (indexPrice) commands.push({ type: 'SetIndexPrice', timeMs, category, symbol, indexPrice });
  }
  for (const uid of UIDS) {
    commands.push({
      type: 'CreateAccount',
      timeMs,
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: '',
    });
    for (const [wallet, coin, amount] of [
      ['spot', 'USDT', '100000'],
      ['spot', 'BTC', '2'],
      ['usdt_futures', 'USDT', '50000'],
    ] as const) {
      commands.push({
        type: 'Deposit',
        timeMs,
        uid,
        coin,
        amount: money(amount),
        wallet,
        subType: 'onchain',
      });
    }
  }
  commands.push({
    type: 'SetFundingRate',
    timeMs,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    rate: '0.0005',
  });
  return commands;
}

/** One random command at `timeMs`. */
function randomCommand(random: Random, timeMs: number, orders: number): Command {
  const uid = random.pick(UIDS);
  const roll = random.next();
  if (roll < 0.5) {
    const futures = random.bool();
    const request: OrderRequest = {
      symbol: 'BTCUSDT',
      side: random.pick(['buy', 'sell'] as const),
      orderType: random.bool(0.8) ? 'limit' : 'market',
      timeInForce: 'gtc',
      stpMode: 'none',
      quantity: random.pick(['0.001', '0.01', '0.05']),
    };
    if (request.orderType === 'limit') request.price = String(59_000 + random.int(0, 20) * 100);
    return {
      type: 'PlaceOrders',
      timeMs,
      uid,
      category: futures ? 'USDT-FUTURES' : 'SPOT',
      items: [request],
    };
  }
  if (roll < 0.62 && orders > 0) {
    const orderId = String(10n ** 17n + BigInt(random.int(1, orders * 4)));
    return { type: 'CancelOrders', timeMs, uid, items: [{ orderId }] };
  }
  if (roll < 0.72) {
    const outward = random.bool();
    return {
      type: 'TransferFunds',
      timeMs,
      uid,
      kind: 'wallet',
      fromUid: uid,
      toUid: uid,
      fromWallet: outward ? 'spot' : 'usdt_futures',
      toWallet: outward ? 'usdt_futures' : 'spot',
      coin: 'USDT',
      amount: money(String(random.int(1, 500))),
      clientOid: '',
    };
  }
  if (roll < 0.8) {
    const type = random.pick(['Deposit', 'Withdraw'] as const);
    return {
      type,
      timeMs,
      uid,
      coin: 'USDT',
      amount: money(String(random.int(1, 300))),
      wallet: 'spot',
      subType: 'onchain',
    };
  }
  if (roll < 0.92) {
    const indexPrice = String(58_000 + random.int(0, 40) * 100);
    return { type: 'SetIndexPrice', timeMs, category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice };
  }
  return { type: 'AdvanceClock', timeMs, ms: random.int(0, 3 * 60 * 60 * 1000) };
}

/** Runs `execute` with a throw armed at the `at`-th Map write; true when it fired. */
function withThrowAt<T>(at: number, execute: () => T): { fired: boolean; value?: T; error?: unknown } {
  const realSet = Map.prototype.set;
  const realDelete = Map.prototype.delete;
  let writes = 0;
  let fired = false;
  const count = () => {
    if (writes++ === at) {
      fired = true;
      throw new Error(`injected engine fault at write ${at}`);
    }
  };
  Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
    count();
    return realSet.call(this, key, value);
  };
  Map.prototype.delete = function (this: Map<unknown, unknown>, key: unknown) {
    count();
    return realDelete.call(this, key);
  };
  try {
    return { fired, value: execute() };
  } catch (error) {
    return { fired, error };
  } finally {
    Map.prototype.set = realSet;
    Map.prototype.delete = realDelete;
  }
}

/** The ids of every bill the store holds, over the accounts and wallets of `state`. */
async function storedBillIds(store: Store, exchange: Exchange): Promise<string[]> {
  const walletsByUid = new Map<string, Set<string>>();
  for (const key of exchange.state.balances.keys()) {
    const [uid = '', wallet = ''] = key.split('|');
    walletsByUid.set(uid, (walletsByUid.get(uid) ?? new Set()).add(wallet));
  }
  const ids: string[] = [];
  for (const [uid, wallets] of walletsByUid) {
    const bills = await store.bills({ uid, wallets: [...wallets], limit: 1_000_000 });
    ids.push(...bills.map((bill) => bill.billId));
  }
  return ids.sort();
}

async function replayedBillIds(store: Store): Promise<string[]> {
  const scratch = new Exchange();
  const ids: string[] = [];
  for await (const entry of eachRecord(store.journalAfter(0))) {
    for (const event of scratch.execute(entry.command).events) {
      if (event.type === 'BillPosted') ids.push(event.billId);
    }
  }
  return ids.sort();
}

for (const seed of [3, 11, 2024]) {
  test(`sequencer when commands throw at random points keeps the state, the journal and the bills whole (seed ${seed})`, async (t) => {
    const dir = makeTempDir('bourse-rollback-');
    // Seed 2024 writes through the writer thread (several appends in flight), the others inline.
    // Every record is kept: the bills are checked against a replay from the first one.
    const store = openSqliteStore(join(dir, 'bourse.db'), {
      writer: seed === 2024 ? 'thread' : 'inline',
      retention: { snapshots: 1, journalAgeMs: Number.POSITIVE_INFINITY },
    });
    const engineErrors: Command[] = [];
    const sequencer = new Sequencer(new Exchange(), 0, store, {
      snapshotEvery: 97,
      onEngineError: (_error, command) => engineErrors.push(command),
    });
    const faults: Command[] = [];
    t.after(async () => {
      sequencer.stop();
      await store.close();
      removeDir(dir);
    });
    const shadow = new Exchange();
    for (const command of opening(T0)) {
      assert.equal((await sequencer.submit(command)).ok, true, command.type);
      shadow.execute(command);
    }
    const random = new Random(seed);
    let timeMs = T0;
    let orders = 0;
    // Bursts of commands submitted in one turn: a throw lands among commands queued before it
    // (made durable as usual) and after it (they wait for the rollback, then run in order).
    for (let burst = 0; burst < 90; burst += 1) {
      const submitted: { command: Command; outcome: Promise<Outcome<unknown>>; fired: () => boolean }[] = [];
      const size = random.int(1, 6);
      for (let index = 0; index < size; index += 1) {
        const previousMs = timeMs;
        timeMs += random.int(0, 40 * 60 * 1000);
        const command = randomCommand(random, timeMs, orders);
        if (command.type === 'PlaceOrders') orders += 1;
        // Most commands write a handful of Map entries; one that passes a funding time (every
        // 8 h) runs the settlement first and is armed more often, early or late in it.
        const crossesFunding = Math.floor(timeMs / FUNDING_MS) > Math.floor(previousMs / FUNDING_MS);
        const armed = random.bool(crossesFunding ? 0.7 : 0.3) ? random.int(0, random.bool() ? 6 : 60) : -1;
        let fired = false;
        // The engine the command runs on (if it runs now) gets the armed execute for it only.
        const target = sequencer.exchange;
        if (armed >= 0) {
          target.execute = (given: Command) => {
            const run = withThrowAt(armed, () => Exchange.prototype.execute.call(target, given));
            fired = run.fired;
            if (run.error !== undefined) throw run.error;
            return run.value as ReturnType<Exchange['execute']>;
          };
        }
        submitted.push({ command, outcome: sequencer.submit(command), fired: () => fired });
        Reflect.deleteProperty(target, 'execute');
      }
      for (const [index, item] of submitted.entries()) {
        const where = `seed ${seed} burst ${burst} item ${index} ${item.command.type}`;
        const outcome = await item.outcome;
        if (item.fired()) {
          faults.push(item.command);
          assert.deepEqual(outcome, { ok: false, code: 'SYSTEM_ERROR' }, where);
        } else {
          assert.deepEqual(outcome, shadow.execute(item.command).outcome, where);
        }
      }
      const where = `seed ${seed} burst ${burst}`;
      if (submitted.some((item) => item.fired())) {
        assert.equal(stateHash(sequencer.exchange.state), stateHash(shadow.state), `${where}: rolled back`);
      }
      assert.deepEqual(conservationImbalances(sequencer.exchange.state), [], where);
    }
    await sequencer.drain();
    assert.ok(faults.length > 15, `seed ${seed}: only ${faults.length} faults fired`);
    assert.equal(engineErrors.length, faults.length, 'each fault reported once');
    assert.equal(stateHash(sequencer.exchange.state), stateHash(shadow.state));
    const recovered = await recover(store);
    assert.equal(
      stateHash(recovered.exchange.state),
      stateHash(sequencer.exchange.state),
      'recovers to live',
    );
    assert.deepEqual(await storedBillIds(store, recovered.exchange), await replayedBillIds(store));
  });
}
