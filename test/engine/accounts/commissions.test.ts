/**
 * Agent commissions in the engine: fills of referred customers accrue per UTC+8 day, coin and
 * market; the day closes on the clock into one record per accrual; running the job again, or
 * replaying the same commands, gives the same records and the same state.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../../src/domain/commands.ts';
import type { CommissionRecorded, EngineEvent } from '../../../src/domain/events.ts';
import { closeCommissionDays } from '../../../src/engine/agents/commissions.ts';
import { utc8DayStartOf } from '../../../src/engine/agents/days.ts';
import { createContext } from '../../../src/engine/context.ts';
import { Exchange } from '../../../src/engine/exchange.ts';
import { stateHash } from '../../../src/engine/state-hash.ts';
import { assertReplaysExactly, EngineHarness, money } from '../../support/engine-builders.ts';

const HOUR = 60 * 60 * 1000;

function commissionsOf(events: EngineEvent[]): CommissionRecorded[] {
  return events.filter((event): event is CommissionRecorded => event.type === 'CommissionRecorded');
}

/** An agent (30 %) and two referred customers who trade 0.1 BTC at 60000 on BTCUSDT spot. */
function tradingDay(harness: EngineHarness) {
  const run = (command: Command) => harness.ok(command);
  const agent = harness.account();
  const buyer = harness.account({ USDT: '10000' });
  const seller = harness.account({ BTC: '1' });
  run({ type: 'RegisterAgent', timeMs: harness.nowMs, uid: agent, rebateRate: money('0.3'), lineRates: {} });
  run({ type: 'ReferCustomer', timeMs: harness.nowMs, agentUid: agent, customerUid: buyer });
  run({ type: 'ReferCustomer', timeMs: harness.nowMs, agentUid: agent, customerUid: seller });
  const order = (uid: string, side: 'buy' | 'sell') =>
    run({
      type: 'PlaceOrders',
      timeMs: harness.nowMs,
      uid,
      category: 'SPOT',
      items: [
        {
          symbol: 'BTCUSDT',
          side,
          orderType: 'limit',
          timeInForce: 'gtc',
          stpMode: 'none',
          price: '60000',
          quantity: '0.1',
        },
      ],
    });
  order(seller, 'sell');
  order(buyer, 'buy');
  return { agent, buyer, seller };
}

test('commission day close when the clock passes UTC+8 midnight records each accrual once', () => {
  const harness = new EngineHarness();
  const { buyer, seller } = tradingDay(harness);
  const day = utc8DayStartOf(harness.nowMs);
  assert.equal(harness.state.brokerage.accruals.size, 2);
  harness.nowMs = day + 24 * HOUR + 1;
  const { events } = harness.run({ type: 'AdvanceClock', timeMs: harness.nowMs, ms: 0 });
  const records = commissionsOf(events).map((record) => [
    record.uid,
    record.dateMs,
    record.coin,
    record.symbol,
    record.dealAmount,
    record.fee,
    record.rebateAmount,
  ]);
  // Buyer: 0.1 BTC received, fee 0.0001 BTC, rebate 30 % = 0.00003. Seller: fee 6 USDT, 1.8.
  assert.deepEqual(
    records.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      [buyer, day, 'BTC', 'BTCUSDT_SPBL', money('6000'), money('0.0001'), money('0.00003')],
      [seller, day, 'USDT', 'BTCUSDT_SPBL', money('6000'), money('6'), money('1.8')],
    ],
  );
  assert.equal(harness.state.brokerage.accruals.size, 0);
  // The job again, directly and through another command: nothing more.
  const again: EngineEvent[] = [];
  closeCommissionDays(createContext(harness.state, harness.nowMs, again));
  assert.deepEqual(again, []);
  harness.nowMs += HOUR;
  assert.deepEqual(
    commissionsOf(harness.run({ type: 'AdvanceClock', timeMs: harness.nowMs, ms: 0 }).events),
    [],
  );
});

test('commission records when the commands are replayed come out identical with the same state', () => {
  const harness = new EngineHarness();
  tradingDay(harness);
  const close: Command = { type: 'AdvanceClock', timeMs: harness.nowMs + 30 * HOUR, ms: 0 };
  const live = commissionsOf(harness.run(close).events);
  assert.equal(live.length, 2);

  const replay = new EngineHarness();
  // The harness is deterministic: the same builder calls are the same command stream.
  tradingDay(replay);
  const replayed = commissionsOf(replay.run(close).events);
  assert.deepEqual(replayed, live);
  assert.equal(stateHash(replay.state), stateHash(harness.state));
  assert.ok(new Exchange().state.brokerage.accruals instanceof Map);
  assertReplaysExactly(harness);
});

test('commission accrual when the customer was not yet referred earns nothing, and a customer has one agent', () => {
  const harness = new EngineHarness();
  const agent = harness.account();
  const buyer = harness.account({ USDT: '10000' });
  const seller = harness.account({ BTC: '1' });
  harness.place(seller, 'SPOT', { side: 'sell', price: '60000', quantity: '0.01' });
  harness.place(buyer, 'SPOT', { side: 'buy', price: '60000', quantity: '0.01' });
  harness.ok({
    type: 'RegisterAgent',
    timeMs: harness.nowMs,
    uid: agent,
    rebateRate: money('0.5'),
    lineRates: {},
  });
  harness.ok({ type: 'ReferCustomer', timeMs: harness.nowMs, agentUid: agent, customerUid: buyer });
  assert.equal(harness.state.brokerage.accruals.size, 0);
  const other = harness.account();
  const refer = harness.run({
    type: 'ReferCustomer',
    timeMs: harness.nowMs,
    agentUid: other,
    customerUid: buyer,
  });
  assert.equal(refer.outcome.ok ? 'OK' : refer.outcome.code, 'ACCOUNT_NOT_FOUND');
  harness.ok({
    type: 'RegisterAgent',
    timeMs: harness.nowMs,
    uid: other,
    rebateRate: money('0.5'),
    lineRates: {},
  });
  const moved = harness.run({
    type: 'ReferCustomer',
    timeMs: harness.nowMs,
    agentUid: other,
    customerUid: buyer,
  });
  assert.equal(moved.outcome.ok ? 'OK' : moved.outcome.code, 'PARAM_ERROR', 'a customer has one agent');
  const rate = harness.run({
    type: 'RegisterAgent',
    timeMs: harness.nowMs,
    uid: other,
    rebateRate: money('1.5'),
    lineRates: {},
  });
  assert.equal(rate.outcome.ok ? 'OK' : rate.outcome.code, 'PARAM_ERROR');
});
