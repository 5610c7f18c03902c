/**
 * Hostile request fields for fuzz tests: prototype member names, huge and tiny numbers, wrong
 * types, deep nesting, and the plausible value of each field name the routes read (so that a
 * request with one field made hostile gets past the first checks and reaches the deeper ones).
 */
import type { Random } from './random.ts';

export const PROTOTYPE_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

let serial = 0;

/** Field names the routes read, with a value that passes their first checks (clientOids unique). */
export const PLAUSIBLE: Record<string, () => unknown> = {
  category: () => 'SPOT',
  productType: () => 'USDT-FUTURES',
  symbol: () => 'BTCUSDT',
  coin: () => 'USDT',
  marginCoin: () => 'USDT',
  side: () => 'buy',
  orderType: () => 'limit',
  force: () => 'gtc',
  timeInForce: () => 'gtc',
  price: () => '50000',
  qty: () => '0.001',
  size: () => '0.001',
  amount: () => '1',
  orderId: () => '100000000000000001',
  clientOid: () => `fuzz-${(serial += 1)}`,
  fromType: () => 'spot',
  toType: () => 'usdt_futures',
  marginMode: () => 'crossed',
  holdSide: () => 'long',
  posSide: () => 'long',
  tradeSide: () => 'open',
  leverage: () => '10',
  limit: () => '10',
  startTime: () => String(Date.now() - 3_600_000),
  endTime: () => String(Date.now()),
  idLessThan: () => '100000000000000009',
  cursor: () => '100000000000000009',
  planType: () => 'normal_plan',
  triggerPrice: () => '61000',
  triggerType: () => 'fill_price',
  businessType: () => 'deposit',
  groupType: () => 'deposit',
  permissions: () => ['spot_trade'],
  permList: () => ['spot_trade'],
  ipList: () => ['10.0.0.1'],
  label: () => 'fuzz',
  passphrase: () => 'fuzzpass123',
  subAccountUid: () => '1000000001',
  fromUserId: () => '1000000001',
  toUserId: () => '1000000002',
  uid: () => '1000000001',
  indexPrice: () => '60000',
  rate: () => '0.0001',
  ms: () => '1000',
  kind: () => 'main',
  mode: () => 'classic',
  wallet: () => 'spot',
  status: () => 'success',
  result: () => 'passed',
  rebateRate: () => '0.1',
  customerUid: () => '1000000002',
  holdMode: () => 'one_way_mode',
  assetMode: () => 'single',
  reduceOnly: () => 'NO',
  granularity: () => '1m',
  interval: () => '1m',
};

export function hostileValue(random: Random): unknown {
  const choices: (() => unknown)[] = [
    () => random.pick(PROTOTYPE_NAMES),
    () => random.pick(['', ' ', '-1', '-0', '0', '0x1F', 'NaN', 'Infinity', '1e308', '1e-300']),
    () => '9'.repeat(random.int(20, 400)),
    () => `0.${'0'.repeat(random.int(20, 300))}1`,
    () => random.pick([1e308, -1e308, 1.2345678901234567e19, 0.1, -5, 2 ** 53 + 1, 0]),
    () => random.pick([true, false, null]),
    () => [],
    () => ({}),
    () => [random.pick(PROTOTYPE_NAMES)],
    () => Object.fromEntries([[random.pick(PROTOTYPE_NAMES), { polluted: 'yes' }]]),
    () => nested(random.int(50, 400)),
    () => 'x'.repeat(random.int(1000, 20_000)),
    () => random.unicode(random.int(1, 20)).replace(/[\uD800-\uDFFF]/g, ''),
    () => '\u0000\u0007\u001b[31m',
  ];
  return random.pick(choices)();
}

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

/**
 * A body or query: either every plausible field with one to three made hostile (to get past
 * the first checks and reach deeper ones), or a random third of them, half hostile; then
 * sometimes keys named after prototype members.
 */
export function hostileFields(random: Random): Record<string, unknown> {
  const names = Object.keys(PLAUSIBLE);
  const fields: Record<string, unknown> = {};
  if (random.bool(0.6)) {
    for (const name of names) fields[name] = PLAUSIBLE[name]?.();
    for (let count = random.int(1, 3); count > 0; count -= 1)
      fields[random.pick(names)] = hostileValue(random);
  } else {
    for (const name of names) {
      if (random.bool(0.35)) fields[name] = random.bool(0.5) ? hostileValue(random) : PLAUSIBLE[name]?.();
    }
  }
  for (let count = random.int(0, 2); count > 0; count -= 1) {
    Object.defineProperty(fields, random.pick(PROTOTYPE_NAMES), {
      value: hostileValue(random),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return fields;
}

/** Every plausible field, then `changes` applied (a prototype-named key added as its own). */
export function plausibleWith(changes: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(PLAUSIBLE)) fields[name] = value();
  for (const [name, value] of Object.entries(changes)) {
    Object.defineProperty(fields, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return fields;
}

/** A body of any shape: lists of hostile objects, a bare hostile value, or an object. */
export function chaosFields(random: Random): unknown {
  const shape = random.int(0, 9);
  if (shape === 0) return Array.from({ length: random.int(1, 25) }, () => hostileFields(random));
  if (shape === 1) return [hostileValue(random), hostileFields(random)];
  if (shape === 2) return hostileValue(random);
  const fields = hostileFields(random);
  if (random.bool(0.4))
    fields.orderList = Array.from({ length: random.int(0, 60) }, () => hostileFields(random));
  return fields;
}
