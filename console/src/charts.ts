/**
 * The market's charts, drawn by TradingView's lightweight-charts: candles with the mark and
 * index prices as labelled lines, and the depth chart (cumulative size against price, on a
 * price axis). Loaded on demand (a chunk of its own), so the first page does not carry it.
 * Chart values are numbers (approx): the tables beside them show the exact strings.
 */
import {
  AreaSeries,
  CandlestickSeries,
  ColorType,
  createChart,
  createOptionsChart,
  HistogramSeries,
  type IPriceLine,
  type UTCTimestamp,
} from 'lightweight-charts';
import { approx } from './format.ts';

const LAYOUT = { background: { type: ColorType.Solid, color: 'transparent' }, textColor: '#6b7280' };
const GRID = {
  vertLines: { color: 'rgba(127,127,127,0.12)' },
  horzLines: { color: 'rgba(127,127,127,0.12)' },
};
const UP = '#16a34a';
const DOWN = '#dc2626';

/** A candle row as pushed: [startMs, open, high, low, close, baseVolume, quoteVolume, …]. */
export type CandleRow = string[];

export interface CandleChart {
  setCandles(rows: CandleRow[]): void;
  updateCandle(row: CandleRow): void;
  setLevel(name: 'mark' | 'index', price: string): void;
  destroy(): void;
}

function candleOf(row: CandleRow) {
  return {
    time: Math.floor(Number(row[0]) / 1000) as UTCTimestamp,
    open: approx(row[1]),
    high: approx(row[2]),
    low: approx(row[3]),
    close: approx(row[4]),
  };
}

function volumeOf(row: CandleRow) {
  const up = approx(row[4]) >= approx(row[1]);
  return {
    time: Math.floor(Number(row[0]) / 1000) as UTCTimestamp,
    value: approx(row[5]),
    color: up ? 'rgba(22,163,74,0.35)' : 'rgba(220,38,38,0.35)',
  };
}

export function createCandleChart(container: HTMLElement, pricePrecision: number): CandleChart {
  const chart = createChart(container, {
    autoSize: true,
    layout: LAYOUT,
    grid: GRID,
    timeScale: { timeVisible: true, secondsVisible: false },
  });
  const format = { type: 'price' as const, precision: pricePrecision, minMove: 10 ** -pricePrecision };
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    borderVisible: false,
    wickUpColor: UP,
    wickDownColor: DOWN,
    priceFormat: format,
  });
  const volume = chart.addSeries(HistogramSeries, {
    priceScaleId: 'volume',
    priceFormat: { type: 'volume' },
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  const levels = new Map<string, IPriceLine>();
  let lastTime = 0;
  return {
    setCandles(rows) {
      candles.setData(rows.map(candleOf));
      volume.setData(rows.map(volumeOf));
      lastTime = Number(rows.at(-1)?.[0] ?? 0);
    },
    updateCandle(row) {
      // The series takes only the latest bar or a newer one.
      if (Number(row[0]) < lastTime) return;
      lastTime = Number(row[0]);
      candles.update(candleOf(row));
      volume.update(volumeOf(row));
    },
    setLevel(name, price) {
      const value = approx(price);
      if (!price || !value) return;
      const line = levels.get(name);
      if (line) line.applyOptions({ price: value });
      else
        levels.set(
          name,
          candles.createPriceLine({
            price: value,
            color: name === 'mark' ? '#7c3aed' : '#0891b2',
            lineWidth: 1,
            lineStyle: 2,
            title: name,
          }),
        );
    },
    destroy: () => chart.remove(),
  };
}

export interface DepthChart {
  setBook(bids: [string, string][], asks: [string, string][]): void;
  destroy(): void;
}

/** Cumulative size from the best price outwards, ascending by price as the axis needs. */
function cumulative(levels: [string, string][], ascending: boolean) {
  let total = 0;
  const points = levels.map(([price, size]) => {
    total += approx(size);
    return { time: approx(price), value: total };
  });
  return ascending ? points : points.reverse();
}

export function createDepthChart(container: HTMLElement): DepthChart {
  const chart = createOptionsChart(container, { autoSize: true, layout: LAYOUT, grid: GRID });
  const bidSeries = chart.addSeries(AreaSeries, {
    lineColor: UP,
    topColor: 'rgba(22,163,74,0.4)',
    bottomColor: 'rgba(22,163,74,0.05)',
    lineType: 1,
  });
  const askSeries = chart.addSeries(AreaSeries, {
    lineColor: DOWN,
    topColor: 'rgba(220,38,38,0.4)',
    bottomColor: 'rgba(220,38,38,0.05)',
    lineType: 1,
  });
  return {
    setBook(bids, asks) {
      bidSeries.setData(cumulative(bids, false));
      askSeries.setData(cumulative(asks, true));
      chart.timeScale().fitContent();
    },
    destroy: () => chart.remove(),
  };
}
