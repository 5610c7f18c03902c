/**
 * Which v3 order items count as plain (src/api/routes/order-input.ts `isPlainV3Order`): those
 * whose own keys are all plain order fields, so that skipping the reads of every other field
 * gives the same order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPlainV3Order } from '../../../src/api/routes/order-input.ts';

const PLAIN = [
  'category',
  'symbol',
  'side',
  'orderType',
  'timeInForce',
  'price',
  'qty',
  'clientOid',
  'stpMode',
];

test('isPlainV3Order when every key is a plain order field answers true', () => {
  assert.equal(isPlainV3Order({}), true);
  assert.equal(isPlainV3Order(Object.fromEntries(PLAIN.map((name) => [name, 'x']))), true);
  assert.equal(isPlainV3Order(JSON.parse('{"qty":"1","category":"SPOT"}') as Record<string, unknown>), true);
});

test('isPlainV3Order when a key is any other name answers false', () => {
  const others = [
    'posSide',
    'reduceOnly',
    'marginMode',
    'presetStopLossPrice',
    'triggerPrice',
    'Category',
    'qty ',
    '__proto__',
    'constructor',
    '',
  ];
  for (const name of others) {
    const item = JSON.parse(`{"category":"SPOT",${JSON.stringify(name)}:"1"}`) as Record<string, unknown>;
    assert.equal(isPlainV3Order(item), false, name);
  }
});
