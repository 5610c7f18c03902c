/**
 * Subscription arguments → channels: a topic or channel name from the client that is a
 * prototype member ("constructor", "__proto__", "toString") is an unknown channel, never a
 * channel whose kind is one of Object.prototype's members.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWsError, parseChannel } from '../../../src/api/ws/channels.ts';
import { Exchange } from '../../../src/engine/exchange.ts';

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype'];

test('parse channel when a v3 private topic is a prototype name answers channel not found', () => {
  const state = new Exchange().state;
  for (const topic of PROTOTYPE_NAMES) {
    const parsed = parseChannel(state, 'v3', { instType: 'UTA', topic });
    assert.ok(isWsError(parsed), `${topic}: ${JSON.stringify(parsed)}`);
  }
});

test('parse channel when a public channel name is a prototype name answers channel not found', () => {
  const state = new Exchange().state;
  for (const name of PROTOTYPE_NAMES) {
    for (const [dialect, arg] of [
      ['v2', { instType: 'SPOT', channel: name, instId: 'BTCUSDT' }],
      ['v3', { instType: 'spot', topic: name, symbol: 'BTCUSDT' }],
      ['v2', { instType: 'USDT-FUTURES', channel: name, instId: 'default' }],
    ] as const) {
      const parsed = parseChannel(state, dialect, arg);
      assert.ok(isWsError(parsed), `${dialect} ${name}: ${JSON.stringify(parsed)}`);
    }
  }
});
