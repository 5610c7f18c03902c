/**
 * The suite's verdicts cover exactly the installed libraries: every method ccxt's `has` marks
 * true and every SDK method of the covered families has a verdict, and no verdict names a
 * method the libraries no longer have. A library upgrade that adds a method fails here first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CCXT_CASES, CCXT_FLAGS } from './ccxt-cases.ts';
import { ccxtInventory, sdkInventory } from './inventory.ts';
import { SDK_V2_CASES, SDK_V3_CASES } from './sdk-cases.ts';

test('ccxt inventory when read from the installed class has a verdict for every true entry of has', () => {
  const { rest, pro, flags } = ccxtInventory();
  const methods = [...rest, ...pro];
  assert.deepEqual(
    methods.filter((method) => !(method in CCXT_CASES)),
    [],
    'unclassified methods',
  );
  assert.deepEqual(
    Object.keys(CCXT_CASES).filter((method) => !methods.includes(method)),
    [],
    'stale verdicts',
  );
  assert.deepEqual(flags.sort(), Object.keys(CCXT_FLAGS).sort(), 'capability flags');
});

test('SDK inventory when read from the installed clients has a verdict for every method of the covered families', () => {
  for (const [client, cases] of [
    ['RestClientV2', SDK_V2_CASES],
    ['RestClientV3', SDK_V3_CASES],
  ] as const) {
    const covered = sdkInventory().filter(
      (method) => method.client === client && method.family !== 'outside',
    );
    const names = covered.map((method) => method.name);
    assert.deepEqual(
      names.filter((name) => !(name in cases)),
      [],
      `${client}: unclassified methods`,
    );
    assert.deepEqual(
      Object.keys(cases).filter((name) => !names.includes(name)),
      [],
      `${client}: stale verdicts`,
    );
  }
});
