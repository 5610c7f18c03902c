/**
 * System: health, readiness and the server's metrics (GET /health, /ready, /metrics), read
 * every 2 s; rates are the counters' increase between two readings, the store's growth its
 * size's change over the last minute (metrics.ts).
 */
import { useRef, useState } from 'preact/hooks';
import { plainGet, session } from '../api.ts';
import { usePoll } from '../hooks.ts';
import { byteText, parseMetrics, perMinute, ratePerSecond, total, within, type Reading } from '../metrics.ts';

const REFRESH_MS = 2_000;

interface Status {
  health: { status: number; text: string };
  ready: { status: number; text: string };
  metrics: { status: number; text: string };
  atMs: number;
}

async function loadStatus(): Promise<Status> {
  const [health, ready, metrics] = await Promise.all([
    plainGet('/health'),
    plainGet('/ready'),
    plainGet('/metrics'),
  ]);
  return { health, ready, metrics, atMs: performance.now() };
}

function statusText(answer: { status: number; text: string } | undefined): string {
  if (!answer) return '';
  if (answer.status === 404) return 'not served by this server';
  try {
    const parsed = JSON.parse(answer.text) as { status?: string };
    return `${parsed.status ?? ''} (HTTP ${answer.status})`;
  } catch {
    return `HTTP ${answer.status}`;
  }
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? '—' : value.toFixed(digits));
const mib = (bytes: number | undefined) =>
  bytes === undefined ? '—' : `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function System() {
  const previous = useRef<Reading | undefined>(undefined);
  const history = useRef<Reading[]>([]);
  const [rates, setRates] = useState<Record<string, number | undefined>>({});
  const { data, error } = usePoll(
    async () => {
      const status = await loadStatus();
      if (status.metrics.status === 200) {
        const reading = { atMs: status.atMs, samples: parseMetrics(status.metrics.text) };
        setRates({
          orders: ratePerSecond(previous.current, reading, 'bourse_orders_total'),
          fills: ratePerSecond(previous.current, reading, 'bourse_fills_total'),
          trades: ratePerSecond(previous.current, reading, 'bourse_trades_total'),
          requests: ratePerSecond(previous.current, reading, 'bourse_http_requests_total'),
          journal: ratePerSecond(previous.current, reading, 'bourse_journal_last_seq'),
          storeGrowth: perMinute((history.current = within(history.current, reading)), 'bourse_store_bytes'),
        });
        previous.current = reading;
      }
      return status;
    },
    REFRESH_MS,
    [],
  );
  const samples = data?.metrics.status === 200 ? parseMetrics(data.metrics.text) : [];
  const bourse = samples.filter(
    (sample) => sample.name.startsWith('bourse_') && !sample.name.endsWith('_bucket'),
  );
  return (
    <section>
      <h2>System</h2>
      {error && <p class="error">{error}</p>}
      <div class="cards" id="system-cards">
        <article>
          <header>Health</header>
          <p data-field="health">{statusText(data?.health)}</p>
        </article>
        <article>
          <header>Readiness</header>
          <p data-field="ready">{statusText(data?.ready)}</p>
        </article>
        <article>
          <header>Journal</header>
          <p>
            <span data-field="journal-seq">{total(samples, 'bourse_journal_last_seq') ?? '—'}</span> commands,{' '}
            {fixed(rates.journal)} /s
          </p>
          <p>
            <span data-field="store-bytes">{byteText(total(samples, 'bourse_store_bytes'))}</span> stored,{' '}
            <span data-field="store-growth">
              {rates.storeGrowth === undefined
                ? '—'
                : `${rates.storeGrowth < 0 ? '' : '+'}${byteText(rates.storeGrowth)}`}
            </span>{' '}
            /min
          </p>
          <small>pending {total(samples, 'bourse_journal_pending_commands') ?? '—'}</small>
        </article>
        <article>
          <header>Orders / fills per second</header>
          <p data-field="rates">
            {fixed(rates.orders)} / {fixed(rates.fills)}
          </p>
          <small>
            trades {fixed(rates.trades)} /s, HTTP {fixed(rates.requests)} req/s
          </small>
        </article>
        <article>
          <header>Connections</header>
          <p data-field="connections">{total(samples, 'bourse_websocket_connections') ?? '—'} WebSocket</p>
        </article>
        <article>
          <header>Process</header>
          <p>{mib(total(samples, 'process_resident_memory_bytes'))} resident</p>
          <small>
            event-loop p99{' '}
            {fixed((total(samples, 'nodejs_eventloop_lag_p99_seconds') ?? Number.NaN) * 1000, 1)} ms
          </small>
        </article>
      </div>
      {data && data.metrics.status !== 200 && (
        <p class="muted">
          /metrics: {statusText(data.metrics)}
          {(data.metrics.status === 401 || data.metrics.status === 403) && <MetricsToken />}
        </p>
      )}
      <details>
        <summary>Every bourse metric</summary>
        <div class="overflow-auto">
          <table class="compact striped">
            <tbody>
              {bourse.map((sample) => (
                <tr key={sample.name + sample.labels}>
                  <td>
                    <code>
                      {sample.name}
                      {sample.labels}
                    </code>
                  </td>
                  <td class="num">{sample.value}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function MetricsToken() {
  return (
    <form
      class="inline"
      onSubmit={(event) => {
        event.preventDefault();
        session.setMetricsToken(String(new FormData(event.currentTarget).get('metricsToken') ?? ''));
      }}
    >
      <input
        name="metricsToken"
        type="password"
        placeholder="BOURSE_METRICS_TOKEN"
        aria-label="Metrics token"
      />
      <button type="submit" class="small">
        Use
      </button>
    </form>
  );
}
