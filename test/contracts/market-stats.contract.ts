/**
 * The store contract of the market statistics rows (migration 47), run on every store beside
 * store.contract.ts: settled funding rates page newest first, closed positions' lives come back
 * by close time from a given time, and trades whose taker bought write `taker_buy` candles.
 * The events are written as the sequencer would hand them over, in one append.
 */
import assert from 'node:assert/strict';
import type { EngineEvent } from '../../src/domain/events.ts';
import type { ContractTest, StoreHarness } from './store.contract.ts';
import { T0 } from './store-workload.ts';

const HOUR = 60 * 60 * 1000;

function settled(symbol: string, fundingRate: string, timeMs: number): EngineEvent {
  return { type: 'FundingRateSettled', category: 'USDT-FUTURES', symbol, fundingRate, timeMs };
}

function closed(positionId: string, holdSide: string, openedMs: number, closedMs: number): EngineEvent {
  return {
    type: 'PositionClosed',
    position: {
      positionId,
      uid: `u-${positionId}`,
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginCoin: 'USDT',
      holdSide,
      posMode: 'hedge_mode',
      marginMode: 'crossed',
      openAvgPrice: '60000',
      closeAvgPrice: '60100',
      openTotalPos: '0.25',
      closeTotalPos: '0.25',
      pnl: '25',
      netProfit: '25',
      totalFunding: '0',
      openFee: '0',
      closeFee: '0',
      createdTimeMs: openedMs,
      updatedTimeMs: closedMs,
    },
  };
}

function trade(tradeId: string, side: string, quantity: string, timeMs: number): EngineEvent {
  return {
    type: 'TradeRecorded',
    tradeId,
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    price: '60000',
    quantity,
    side,
    timeMs,
  };
}

export function marketStatsContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `market statistics reads when settlements, closed positions and trades were written return them (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const events = [
          settled('BTCUSDT', '0.0001', T0 + 8 * HOUR),
          settled('ETHUSDT', '0.0003', T0 + 8 * HOUR),
          settled('BTCUSDT', '-0.0002', T0 + 16 * HOUR),
          settled('BTCUSDT', '0.00005', T0 + 24 * HOUR),
          closed('p1', 'long', T0, T0 + HOUR),
          closed('p2', 'short', T0 + HOUR, T0 + 3 * HOUR),
          closed('p3', 'long', T0, T0 + 2 * HOUR),
          trade('t1', 'buy', '0.1', T0 + 1_000),
          trade('t2', 'sell', '0.2', T0 + 2_000),
          trade('t3', 'buy', '0.05', T0 + 61_000),
        ];
        await store.append([{ seq: 1, command: { type: 'AdvanceClock', timeMs: T0, ms: 0 }, events }]);

        const page = (offset: number, limit: number) =>
          store.fundingRates({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', offset, limit });
        assert.deepEqual(
          (await page(0, 10)).map((row) => [row.fundingRate, row.timeMs - T0]),
          [
            ['0.00005', 24 * HOUR],
            ['-0.0002', 16 * HOUR],
            ['0.0001', 8 * HOUR],
          ],
        );
        assert.deepEqual(
          (await page(1, 1)).map((row) => row.fundingRate),
          ['-0.0002'],
        );

        const spans = await store.positionSpans({
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          closedFromMs: T0 + 2 * HOUR,
        });
        assert.deepEqual(
          spans.map((span) => [
            span.positionId,
            span.uid,
            span.holdSide,
            span.size,
            span.openedMs - T0,
            span.closedMs - T0,
          ]),
          [
            ['p3', 'u-p3', 'long', '0.25', 0, 2 * HOUR],
            ['p2', 'u-p2', 'short', '0.25', HOUR, 3 * HOUR],
          ],
        );

        const minutes = await store.candles({
          kind: 'taker_buy',
          category: 'USDT-FUTURES',
          symbol: 'BTCUSDT',
          resolution: '1m',
          fromMs: T0,
          toMs: T0 + HOUR,
        });
        assert.deepEqual(
          minutes.map((row) => [row.bucketMs - T0, row.baseVolume]),
          [
            [0, 10_000_000n],
            [60_000, 5_000_000n],
          ],
        );
      },
    },
  ];
}
