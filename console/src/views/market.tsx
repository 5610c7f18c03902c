/**
 * One market, live from the public WebSocket: candles (every granularity the venue pushes)
 * with the mark and index prices, the depth chart, the order book and recent trades.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Book, type Level } from '../book.ts';
import type { CandleChart, CandleRow, DepthChart } from '../charts.ts';
import { percent, signClass, time } from '../format.ts';
import { useBatched, usePoll } from '../hooks.ts';
import { loadInstruments, tickerOf, type Ticker } from '../markets-data.ts';
import { publicFeed } from '../ws.ts';

export const GRANULARITIES =
  '1m 5m 15m 30m 1H 4H 6H 12H 1D 3D 1W 1M 6Hutc 12Hutc 1Dutc 3Dutc 1Wutc 1Mutc'.split(' ');
const BOOK_DEPTH = 20;

interface TradeRow {
  tradeId: string;
  price: string;
  size: string;
  side: string;
  ts: string;
}

function CandlePanel({
  instType,
  symbol,
  precision,
  ticker,
}: {
  instType: string;
  symbol: string;
  precision: number;
  ticker: Ticker | null;
}) {
  const [granularity, setGranularity] = useState('1m');
  const [traded, setTraded] = useState(true);
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<CandleChart | null>(null);
  useEffect(() => {
    let stopped = false;
    let stop = () => {};
    void import('../charts.ts').then(({ createCandleChart }) => {
      if (stopped || !container.current) return;
      const created = createCandleChart(container.current, precision);
      chart.current = created;
      stop = publicFeed.subscribe<CandleRow>(
        { instType, channel: `candle${granularity}`, instId: symbol },
        (push) => {
          if (push.action === 'snapshot') created.setCandles(push.data);
          else for (const row of push.data) created.updateCandle(row);
          setTraded(push.data.length > 0 || push.action === 'update');
          const last = push.data.at(-1);
          if (last) container.current?.setAttribute('data-last-close', last[4] ?? '');
        },
      );
    });
    return () => {
      stopped = true;
      stop();
      chart.current?.destroy();
      chart.current = null;
    };
  }, [instType, symbol, granularity, precision]);
  useEffect(() => {
    if (!ticker || !chart.current) return;
    chart.current.setLevel('mark', ticker.markPrice);
    chart.current.setLevel('index', ticker.indexPrice);
  }, [ticker?.markPrice, ticker?.indexPrice, chart.current]);
  return (
    <article class="panel">
      <header class="panel-head">
        <strong>Candles</strong>
        <select
          aria-label="Granularity"
          value={granularity}
          onChange={(event) => setGranularity(event.currentTarget.value)}
        >
          {GRANULARITIES.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </header>
      <div ref={container} class="chart" id="candle-chart" data-mark={ticker?.markPrice ?? ''}>
        {!traded && <p class="chart-note muted">No trade yet: candles start with the first trade.</p>}
      </div>
    </article>
  );
}

function DepthPanel({ levels }: { levels: { bids: Level[]; asks: Level[] } }) {
  const container = useRef<HTMLDivElement>(null);
  const chart = useRef<DepthChart | null>(null);
  useEffect(() => {
    let stopped = false;
    void import('../charts.ts').then(({ createDepthChart }) => {
      if (!stopped && container.current) chart.current = createDepthChart(container.current);
    });
    return () => {
      stopped = true;
      chart.current?.destroy();
      chart.current = null;
    };
  }, []);
  useEffect(() => chart.current?.setBook(levels.bids, levels.asks), [levels, chart.current]);
  return (
    <article class="panel">
      <header class="panel-head">
        <strong>Depth</strong>
      </header>
      <div ref={container} class="chart depth" id="depth-chart" />
    </article>
  );
}

function BookTable({ levels }: { levels: { bids: Level[]; asks: Level[] } }) {
  const rows = (side: 'ask' | 'bid', list: Level[]) =>
    list.map(([price, size]) => (
      <tr key={`${side}${price}`} class={side}>
        <td class={`num ${side === 'ask' ? 'down' : 'up'}`}>{price}</td>
        <td class="num">{size}</td>
      </tr>
    ));
  return (
    <article class="panel">
      <header class="panel-head">
        <strong>Order book</strong>
      </header>
      <table class="compact book" id="order-book">
        <thead>
          <tr>
            <th class="num">Price</th>
            <th class="num">Size</th>
          </tr>
        </thead>
        <tbody>{rows('ask', [...levels.asks].reverse())}</tbody>
        <tbody>{rows('bid', levels.bids)}</tbody>
      </table>
    </article>
  );
}

function TradesTable({ trades }: { trades: TradeRow[] }) {
  return (
    <article class="panel">
      <header class="panel-head">
        <strong>Recent trades</strong>
      </header>
      <table class="compact" id="recent-trades">
        <thead>
          <tr>
            <th class="num">Price</th>
            <th class="num">Size</th>
            <th>Time</th>
          </tr>
        </thead>
        <tbody>
          {trades.map((trade) => (
            <tr key={trade.tradeId}>
              <td class={`num ${trade.side === 'buy' ? 'up' : 'down'}`}>{trade.price}</td>
              <td class="num">{trade.size}</td>
              <td>{time(trade.ts).slice(11)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </article>
  );
}

function useMarketFeed(instType: string, symbol: string) {
  const [state, update] = useBatched(() => ({
    book: new Book(),
    levels: { bids: [] as Level[], asks: [] as Level[] },
    trades: [] as TradeRow[],
    ticker: null as Ticker | null,
  }));
  useEffect(() => {
    const arg = (channel: string) => ({ instType, channel, instId: symbol });
    const stops = [
      publicFeed.subscribe<{ bids: Level[]; asks: Level[] }>(arg('books'), (push) =>
        update((held) => {
          for (const row of push.data) held.book.apply(push.action, row);
          held.levels = held.book.top(BOOK_DEPTH);
        }),
      ),
      publicFeed.subscribe<TradeRow>(arg('trade'), (push) =>
        update((held) => {
          const newest = [...push.data].reverse();
          held.trades = push.action === 'snapshot' ? newest : [...newest, ...held.trades].slice(0, 50);
        }),
      ),
      publicFeed.subscribe<Record<string, unknown>>(arg('ticker'), (push) => {
        const row = push.data.at(-1);
        if (row) update((held) => (held.ticker = tickerOf(row)));
      }),
    ];
    return () => stops.forEach((stop) => stop());
  }, [instType, symbol]);
  return state;
}

export function Market({ instType, symbol }: { instType: string; symbol: string }) {
  const { data: instruments } = usePoll(loadInstruments, 60_000, []);
  const instrument = instruments?.find((row) => row.category === instType && row.symbol === symbol);
  const { levels, trades, ticker } = useMarketFeed(instType, symbol);
  const precision = Number(instrument?.pricePrecision ?? 2);
  return (
    <section>
      <nav aria-label="breadcrumb">
        <ul>
          <li>
            <a href="#/markets">Markets</a>
          </li>
          <li>{instType}</li>
        </ul>
      </nav>
      <div class="market-head" id="market-head">
        <h2>{symbol}</h2>
        <dl>
          <div>
            <dt>Last</dt>
            <dd data-field="last">{ticker?.last}</dd>
          </div>
          <div>
            <dt>24 h</dt>
            <dd class={signClass(ticker?.change24h)}>{percent(ticker?.change24h)}</dd>
          </div>
          <div>
            <dt>Index</dt>
            <dd data-field="index">{ticker?.indexPrice || '—'}</dd>
          </div>
          <div>
            <dt>Mark</dt>
            <dd data-field="mark">{ticker?.markPrice || '—'}</dd>
          </div>
          <div>
            <dt>Funding</dt>
            <dd>{ticker?.fundingRate ? percent(ticker.fundingRate) : '—'}</dd>
          </div>
          <div>
            <dt>Volume 24 h</dt>
            <dd>{ticker?.baseVolume}</dd>
          </div>
        </dl>
      </div>
      <div class="market-grid">
        <CandlePanel instType={instType} symbol={symbol} precision={precision} ticker={ticker} />
        <BookTable levels={levels} />
        <DepthPanel levels={levels} />
        <TradesTable trades={trades} />
      </div>
    </section>
  );
}
