/**
 * Random prices driven through futures positions of every kind: USDT-, USDC- and
 * coin-margined; crossed and isolated; one-way and hedge; a union-margin account holding BTC
 * as collateral. After every index move the engine has liquidated what reached maintenance
 * (by tier, through whatever book a maker left, then the insurance fund, then ADL), and:
 *  - conservation holds (engine/invariants.ts: every coin's balances, margins and positions'
 *    cost bases against what came in);
 *  - no trader's position is left at or beyond 100 % margin ratio;
 *  - no position is left with locked lots beyond its size, and the books are uncrossed.
 * Seeded (test/support/random.ts): a failure names the seed and the step.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Category } from '../../src/domain/category.ts';
import { INSURANCE_FUND_UID } from '../../src/domain/account.ts';
import { crossState, positionRisk } from '../../src/engine/futures/risk.ts';
import { EngineHarness } from '../support/engine-builders.ts';
import { Random } from '../support/random.ts';

interface Line {
  category: Category;
  symbol: string;
  wallet: string;
  coin: string;
  funds: string;
  makerFunds: string;
  tick: number;
  /** A size in the contract's unit: base coin, or USD contracts when inverse. */
  size: (random: Random) => string;
}

const LINES: Line[] = [
  {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    wallet: 'usdt_futures',
    coin: 'USDT',
    funds: '600',
    makerFunds: '10000000',
    tick: 0.1,
    size: (random) => (random.int(1, 20) / 100).toFixed(2),
  },
  {
    category: 'USDC-FUTURES',
    symbol: 'BTCPERP',
    wallet: 'usdc_futures',
    coin: 'USDC',
    funds: '600',
    makerFunds: '10000000',
    tick: 0.1,
    size: (random) => (random.int(1, 20) / 100).toFixed(2),
  },
  {
    category: 'COIN-FUTURES',
    symbol: 'BTCUSD',
    wallet: 'coin_futures',
    coin: 'BTC',
    funds: '0.01',
    makerFunds: '200',
    tick: 0.5,
    size: (random) => String(random.int(100, 6000)),
  },
];

const priceText = (price: number, tick: number) => (Math.round(price / tick) * tick).toFixed(1);

/** Moves the index; returns the trade sides of the fills it caused (liquidations, ADL). */
function setIndex(engine: EngineHarness, line: Line, price: number): string[] {
  const { outcome, events } = engine.run({
    type: 'SetIndexPrice',
    timeMs: engine.nowMs,
    category: line.category,
    symbol: line.symbol,
    indexPrice: priceText(price, line.tick),
  });
  assert.ok(outcome.ok);
  return events.flatMap((event) => (event.type === 'FillRecorded' ? [event.fill.tradeSide] : []));
}

function configure(engine: EngineHarness, random: Random, uid: string, line: Line) {
  const base = { timeMs: engine.nowMs, uid, category: line.category };
  if (random.bool()) engine.ok({ ...base, type: 'SetPositionMode', posMode: 'hedge_mode' });
  if (random.bool())
    engine.ok({ ...base, type: 'SetMarginMode', symbol: line.symbol, marginMode: 'isolated' });
  engine.ok({ ...base, type: 'SetLeverage', symbol: line.symbol, leverage: random.int(5, 50) });
}

/** A trader takes a maker's resting order: `buy` opens long, else short. */
function open(
  engine: EngineHarness,
  line: Line,
  maker: string,
  trader: string,
  buy: boolean,
  size: string,
  price: number,
) {
  const at = priceText(price, line.tick);
  engine.place(maker, line.category, {
    symbol: line.symbol,
    side: buy ? 'sell' : 'buy',
    price: at,
    quantity: size,
  });
  engine.place(trader, line.category, {
    symbol: line.symbol,
    side: buy ? 'buy' : 'sell',
    posSide: buy ? 'long' : 'short',
    price: at,
    quantity: size,
  });
}

function assertSafe(engine: EngineHarness, where: string) {
  const { state, books } = engine.exchange;
  const crossChecked = new Set<string>();
  for (const position of state.positions.values()) {
    if (position.uid === INSURANCE_FUND_UID) continue;
    assert.ok(position.lockedLots <= position.sizeLots, `${where}: locked beyond size`);
    const risk = positionRisk(state, books, position);
    if (!risk) continue;
    if (position.marginMode === 'isolated') {
      assert.ok(
        position.isolatedMargin + risk.unrealisedPnl > risk.maintenanceMargin,
        `${where}: isolated left at 100 %`,
      );
      continue;
    }
    const key = `${position.uid}|${position.wallet}|${position.marginCoin}`;
    if (crossChecked.has(key)) continue;
    crossChecked.add(key);
    const cross = crossState(state, books, position.uid, position.wallet, position.marginCoin);
    assert.ok(cross.equity > cross.maintenanceMargin, `${where}: cross wallet left at 100 %`);
  }
  for (const line of LINES) {
    const book = books.peek(`${line.category}:${line.symbol}`);
    const bid = book?.bestPriceTicks('buy');
    const ask = book?.bestPriceTicks('sell');
    if (bid !== undefined && ask !== undefined) assert.ok(bid < ask, `${where}: ${line.symbol} crossed`);
  }
}

for (const seed of [3, 11, 29, 2026]) {
  test(`random prices through futures positions keep conservation and leave nobody past maintenance (seed ${seed})`, () => {
    const random = new Random(seed);
    const forced = { burst: 0, adl: 0 };
    const engine = new EngineHarness();
    for (const line of LINES) {
      const maker = engine.account({ [line.coin]: line.makerFunds }, line.wallet);
      const traders = Array.from({ length: 6 }, () =>
        engine.account({ [line.coin]: line.funds }, line.wallet),
      );
      let price = 60000;
      for (const trader of traders) {
        configure(engine, random, trader, line);
        open(engine, line, maker, trader, random.bool(), line.size(random), price);
      }
      if (line.category === 'USDT-FUTURES') {
        // A union-margin long backed by BTC in its USDT-M wallet.
        const union = engine.account({ USDT: '100' }, line.wallet);
        engine.ok({ type: 'SetAssetMode', timeMs: engine.nowMs, uid: union, assetMode: 'union' });
        engine.ok({
          type: 'Deposit',
          timeMs: engine.nowMs,
          uid: union,
          coin: 'BTC',
          amount: 1_000_000n,
          wallet: line.wallet,
          subType: 'onchain',
        });
        open(engine, line, maker, union, true, '0.2', price);
      }
      engine.assertConserved();
      for (let step = 0; step < 30; step++) {
        const where = `seed ${seed} ${line.symbol} step ${step}`;
        // Sometimes the maker leaves bids and asks around the price for liquidations to take.
        if (random.bool(0.5)) {
          const spread = (price * random.int(1, 40)) / 1000;
          engine.place(maker, line.category, {
            symbol: line.symbol,
            side: 'buy',
            price: priceText(price - spread, line.tick),
            quantity: line.size(random),
          });
          engine.place(maker, line.category, {
            symbol: line.symbol,
            side: 'sell',
            price: priceText(price + spread, line.tick),
            quantity: line.size(random),
          });
        }
        price = Math.max(1000, price * (1 + (random.next() - 0.5) * 0.16));
        for (const side of setIndex(engine, line, price)) {
          if (side.startsWith('burst')) forced.burst += 1;
          if (side.startsWith('dte_sys_adl')) forced.adl += 1;
        }
        engine.assertConserved();
        assertSafe(engine, where);
      }
    }
    // The walk does reach the paths it is about.
    assert.ok(forced.burst > 0, 'no liquidation happened');
    assert.ok(forced.adl > 0, 'no ADL happened');
  });
}
