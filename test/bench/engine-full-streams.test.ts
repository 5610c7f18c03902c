/**
 * The full-engine benchmark measures what it says: its crossing stream fills every order
 * whole, and its exchange-core stream's commands are accepted by a fresh engine (the only
 * refusals are modifies to the terms an order already has).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Exchange } from '../../src/engine/exchange.ts';
import type { EngineEvent } from '../../src/domain/events.ts';
import { crossingStream, exchangeCoreStream, priceOf, quantityOf } from '../../bench/engine-full-streams.ts';

function replayed(stream: ReturnType<typeof crossingStream>): { exchange: Exchange; events: EngineEvent[] } {
  const exchange = new Exchange();
  for (const command of stream.setup) assert.equal(exchange.execute(command).outcome.ok, true);
  const events: EngineEvent[] = [];
  for (const command of stream.commands) events.push(...exchange.execute(command).events);
  return { exchange, events };
}

test('bench streams print stream ticks and lots as BTCUSDT prices and quantities', () => {
  // 60,000 + (99,995 − 100,000) × 0.10 = 59,999.50; 7 lots × 0.0001 = 0.0007
  assert.equal(priceOf(99_995), '59999.50');
  assert.equal(priceOf(100_012), '60001.20');
  assert.equal(quantityOf(7), '0.0007');
});

for (const ordersPerCommand of [1, 20]) {
  test(`bench crossing stream of ${ordersPerCommand} per command fills every order whole`, () => {
    const stream = crossingStream(400, ordersPerCommand);
    assert.equal(stream.commands.length, 400 / ordersPerCommand);
    assert.deepEqual([...stream.refusals], []);
    const { exchange, events } = replayed(stream);
    // 400 orders in 200 pairs: one trade per pair, two fills per trade.
    assert.equal(events.filter((event) => event.type === 'TradeRecorded').length, 200);
    assert.equal(events.filter((event) => event.type === 'FillRecorded').length, 400);
    const finals = events.filter((event) => event.type === 'OrderUpdated' && event.order.status === 'filled');
    assert.equal(finals.length, 400);
    assert.equal(exchange.state.orders.size, 0);
  });
}

test('bench exchange-core stream is accepted by a fresh engine but for unchanged modifies', () => {
  const stream = exchangeCoreStream(7, 5_000);
  assert.equal(stream.commands.length, 5_000);
  for (const code of stream.refusals.keys()) assert.equal(code, 'MODIFY_UNCHANGED');
  const { exchange } = replayed(stream);
  // The prefill leaves about 1,000 orders resting and the mix keeps it between 900 and 1,100.
  assert.ok(
    exchange.state.orders.size > 800 && exchange.state.orders.size < 1_200,
    `${exchange.state.orders.size}`,
  );
});
