/**
 * The price feeds' streams (GET /admin/v1/feeds) with Pause / Resume per stream, for every
 * stream, or for the stream of one instrument (PUT /admin/v1/feeds). While a stream is paused
 * its index moves only by "Set index price". Run-time state: a restart or a reset runs every
 * stream again.
 */
import { useState } from 'preact/hooks';
import { errorText, operator } from '../api.ts';
import { ActionForm, Answer, DataTable } from '../components.tsx';
import { usePoll } from '../hooks.ts';
import { CATEGORIES } from '../operate-actions.ts';

interface Stream {
  feed: string;
  source: string;
  instruments: string[];
  paused: boolean;
}

export function Feeds() {
  const { data, error, refresh } = usePoll(() => operator<Stream[]>('GET', '/feeds'), 2_000, []);
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const change = async (body: Record<string, unknown>) => {
    try {
      const streams = await operator<Stream[]>('PUT', '/feeds', body);
      const paused = streams.filter((stream) => stream.paused).map((stream) => stream.feed);
      setAnswer({ ok: true, text: `paused: ${paused.join(', ') || 'none'}` });
    } catch (caught) {
      setAnswer({ ok: false, text: errorText(caught) });
    }
    refresh();
  };
  return (
    <details open id="feeds">
      <summary>
        <strong>Price feeds</strong>
      </summary>
      {error && <p class="error">{error}</p>}
      {data && data.length === 0 && (
        <p class="muted">No price feed runs (BOURSE_FEED=off): prices move only by "Set index price".</p>
      )}
      {data && data.length > 0 && (
        <>
          <div class="toolbar">
            <button
              type="button"
              class="small secondary"
              onClick={() => void change({ feed: '*', paused: true })}
            >
              Pause all
            </button>
            <button type="button" class="small" onClick={() => void change({ feed: '*', paused: false })}>
              Resume all
            </button>
          </div>
          <DataTable
            id="feed-streams"
            rows={data}
            rowKey={(row) => row.feed}
            columns={[
              ['Stream', (row) => row.feed],
              ['Source', (row) => row.source],
              [
                'State',
                (row) => (
                  <span class={row.paused ? 'warning' : 'up'}>{row.paused ? 'paused' : 'running'}</span>
                ),
              ],
              [
                '',
                (row) => (
                  <button
                    type="button"
                    class={row.paused ? 'small' : 'small secondary'}
                    aria-label={`${row.paused ? 'Resume' : 'Pause'} ${row.feed}`}
                    onClick={() => void change({ feed: row.feed, paused: !row.paused })}
                  >
                    {row.paused ? 'Resume' : 'Pause'}
                  </button>
                ),
              ],
              ['Instruments', (row) => <small>{row.instruments.join(' ')}</small>],
            ]}
          />
        </>
      )}
      <Answer answer={answer} />
      <ActionForm
        action={{
          id: 'feed-instrument',
          title: "Pause or resume an instrument's stream",
          submitLabel: 'Apply',
          method: 'PUT',
          path: '/feeds',
          fields: [
            { name: 'category', type: 'select', options: CATEGORIES, value: 'USDT-FUTURES' },
            { name: 'symbol', required: true, value: 'BTCUSDT' },
            { name: 'paused', type: 'select', options: ['pause', 'resume'] },
          ],
          body: (values) => ({
            category: values.category,
            symbol: values.symbol,
            paused: values.paused === 'pause',
          }),
        }}
        onDone={refresh}
      />
    </details>
  );
}
