/**
 * The statistics of src/market/market-stats.ts on hand-made holdings: periods, who held what at
 * a moment (a position counts from its opening until, not including, its close), and the
 * account and top-trader ratios.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  accountRatios,
  holdingsAt,
  periodStarts,
  statPeriodOf,
  topAccountRatios,
  topPositionRatios,
  type Holding,
} from '../../src/market/market-stats.ts';

const holding = (uid: string, holdSide: string, size: bigint): Holding => ({ uid, holdSide, size });

test('statPeriodOf when given the venue periods in any case aligns them to UTC', () => {
  assert.equal(statPeriodOf(undefined)?.sizeMs, 5 * 60_000);
  assert.equal(statPeriodOf('1H')?.sizeMs, 3_600_000);
  assert.equal(statPeriodOf('1D')?.zoneMs, 0);
  assert.equal(statPeriodOf('7m'), null);
  assert.equal(statPeriodOf('constructor'), null);
  const day = statPeriodOf('1d');
  assert.ok(day);
  assert.deepEqual(periodStarts(day, Date.parse('2026-01-03T05:00:00Z'), 2), [
    Date.parse('2026-01-02T00:00:00Z'),
    Date.parse('2026-01-03T00:00:00Z'),
  ]);
});

test('holdingsAt when positions opened and closed around a moment keeps those open at it', () => {
  const spans = [
    { positionId: 'p1', uid: 'a', holdSide: 'long', size: '0.5', openedMs: 100, closedMs: 200 },
    { positionId: 'p2', uid: 'b', holdSide: 'short', size: '1', openedMs: 150, closedMs: 300 },
  ];
  const open = [{ uid: 'c', holdSide: 'long', size: '2', openedMs: 250 }];
  const at = (ms: number) => holdingsAt(spans, open, ms).map((entry) => `${entry.uid}:${entry.size}`);
  assert.deepEqual(at(99), []);
  assert.deepEqual(at(150), ['a:50000000', 'b:100000000']);
  assert.deepEqual(at(200), ['b:100000000']);
  assert.deepEqual(at(250), ['b:100000000', 'c:200000000']);
});

test('ratios when ten accounts hold positions take the top fifth by size for the top-trader ratios', () => {
  const holdings = [
    holding('a', 'long', 900n),
    holding('b', 'short', 800n),
    holding('b', 'long', 300n), // b holds both sides (hedge mode): 1100 in all, the largest
    ...['c', 'd', 'e', 'f'].map((uid) => holding(uid, 'long', 10n)),
    ...['g', 'h', 'i', 'j'].map((uid) => holding(uid, 'short', 10n)),
  ];
  assert.deepEqual(accountRatios(holdings), { long: '0.5454', short: '0.4545', longShort: '1.2' });
  // Top two: b (1100) and a (900): long 1200, short 800.
  assert.deepEqual(topPositionRatios(holdings), { long: '0.6', short: '0.4', longShort: '1.5' });
  assert.deepEqual(topAccountRatios(holdings), { long: '0.6666', short: '0.3333', longShort: '2' });
  assert.deepEqual(accountRatios([]), { long: '0', short: '0', longShort: '0' });
});
