/** Markets: every instrument with its live ticker (last, index, mark, 24 h change and volume, funding). */
import { useEffect, useState } from 'preact/hooks';
import { useBatched, usePoll } from '../hooks.ts';
import { percent, short, signClass } from '../format.ts';
import {
  instrumentKey,
  loadInstruments,
  tickerOf,
  type InstrumentRow,
  type Ticker,
} from '../markets-data.ts';
import { publicFeed } from '../ws.ts';

function useTickers(instruments: InstrumentRow[] | undefined): Map<string, Ticker> {
  const [tickers, update] = useBatched(() => new Map<string, Ticker>());
  useEffect(() => {
    if (!instruments) return;
    const stops = instruments.map((instrument) =>
      publicFeed.subscribe<Record<string, unknown>>(
        { instType: instrument.category, channel: 'ticker', instId: instrument.symbol },
        (push) => {
          const row = push.data.at(-1);
          if (row)
            update((map) => map.set(instrumentKey(instrument.category, instrument.symbol), tickerOf(row)));
        },
      ),
    );
    return () => stops.forEach((stop) => stop());
  }, [instruments]);
  return tickers;
}

export function Markets() {
  const { data: instruments, error } = usePoll(loadInstruments, 30_000, []);
  const tickers = useTickers(instruments);
  const [filter, setFilter] = useState('');
  const [category, setCategory] = useState('');
  const categories = [...new Set((instruments ?? []).map((row) => row.category))];
  const needle = filter.trim().toUpperCase();
  const shown = (instruments ?? []).filter(
    (row) => (!category || row.category === category) && (!needle || row.symbol.includes(needle)),
  );
  return (
    <section>
      <h2>Markets</h2>
      <div class="toolbar">
        <input
          type="search"
          placeholder="Symbol"
          aria-label="Filter by symbol"
          value={filter}
          onInput={(event) => setFilter(event.currentTarget.value)}
        />
        <select
          aria-label="Category"
          value={category}
          onChange={(event) => setCategory(event.currentTarget.value)}
        >
          <option value="">All categories</option>
          {categories.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </select>
      </div>
      {error && <p class="error">{error}</p>}
      <div class="overflow-auto">
        <table class="striped compact" id="markets-table">
          <thead>
            <tr>
              <th>Symbol</th>
              <th>Category</th>
              <th class="num">Last</th>
              <th class="num">24 h</th>
              <th class="num">Volume 24 h</th>
              <th class="num">Turnover 24 h</th>
              <th class="num">Index</th>
              <th class="num">Mark</th>
              <th class="num">Funding</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => {
              const ticker = tickers.get(instrumentKey(row.category, row.symbol));
              return (
                <tr
                  key={instrumentKey(row.category, row.symbol)}
                  data-symbol={row.symbol}
                  data-category={row.category}
                >
                  <td>
                    <a href={`#/markets/${row.category}/${row.symbol}`}>{row.symbol}</a>
                  </td>
                  <td>{row.category}</td>
                  <td class="num" data-field="last">
                    {ticker?.last}
                  </td>
                  <td class={`num ${signClass(ticker?.change24h)}`}>{percent(ticker?.change24h)}</td>
                  <td class="num">{short(ticker?.baseVolume, 4)}</td>
                  <td class="num">{short(ticker?.quoteVolume, 2)}</td>
                  <td class="num">{ticker?.indexPrice || '—'}</td>
                  <td class="num" data-field="mark">
                    {ticker?.markPrice || '—'}
                  </td>
                  <td class="num">{ticker?.fundingRate ? percent(ticker.fundingRate) : '—'}</td>
                  <td>{row.status}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {!instruments && !error && <p aria-busy="true">Loading instruments…</p>}
    </section>
  );
}
