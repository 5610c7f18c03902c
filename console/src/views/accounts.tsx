/**
 * Accounts: a searchable list (uid, kind, mode, label, equity). The list is read in pages of
 * 500 from the operator API; the search filters it here (uid or label, any part). Equity is
 * computed for the rows on screen only (50 a page), refreshed with the list.
 */
import { useState } from 'preact/hooks';
import { allPages, errorText } from '../api.ts';
import { DataTable } from '../components.tsx';
import { usePoll } from '../hooks.ts';
import { loadEquity, loadUsdPrices, usd, type AccountSummary } from '../accounts-data.ts';

const PAGE_ROWS = 50;
const MAX_ACCOUNTS = 10_000;

async function loadPage(rows: AccountSummary[]): Promise<Map<string, number>> {
  const prices = await loadUsdPrices();
  const equities = await Promise.all(rows.map((row) => loadEquity(row.uid, prices).catch(() => Number.NaN)));
  return new Map(rows.map((row, index) => [row.uid, equities[index] ?? Number.NaN]));
}

export function Accounts() {
  const accounts = usePoll(() => allPages<AccountSummary>('/accounts', {}, MAX_ACCOUNTS), 15_000, []);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState('');
  const [page, setPage] = useState(0);
  const needle = search.trim().toLowerCase();
  const matching = (accounts.data ?? []).filter(
    (row) =>
      (!kind || row.kind === kind) &&
      (!needle || row.uid.includes(needle) || row.label.toLowerCase().includes(needle)),
  );
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_ROWS));
  const shown = matching.slice(page * PAGE_ROWS, (page + 1) * PAGE_ROWS);
  const shownKey = shown.map((row) => row.uid).join(',');
  const equity = usePoll(() => loadPage(shown), 10_000, [shownKey]);
  const go = (event: Event) => {
    event.preventDefault();
    const uid = String(new FormData(event.currentTarget as HTMLFormElement).get('uid') ?? '').trim();
    if (uid) location.hash = `#/accounts/${encodeURIComponent(uid)}`;
  };
  return (
    <section>
      <h2>Accounts</h2>
      <div class="toolbar">
        <input
          type="search"
          name="search"
          placeholder="uid or label"
          aria-label="Search accounts by uid or label"
          value={search}
          onInput={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
        />
        <select aria-label="Kind" value={kind} onChange={(event) => setKind(event.currentTarget.value)}>
          <option value="">Every kind</option>
          <option>main</option>
          <option>sub</option>
          <option>virtual</option>
        </select>
        <form onSubmit={go} class="inline">
          <input name="uid" placeholder="Open uid" aria-label="Open an account by uid" inputMode="numeric" />
        </form>
      </div>
      {accounts.error && <p class="error">{accounts.error}</p>}
      <DataTable
        id="accounts-table"
        rows={accounts.data ? shown : undefined}
        rowKey={(row) => row.uid}
        empty="No account matches."
        columns={[
          ['uid', (row) => <a href={`#/accounts/${row.uid}`}>{row.uid}</a>],
          ['Kind', (row) => row.kind],
          ['Mode', (row) => row.mode],
          ['Label', (row) => row.label],
          ['Parent', (row) => row.parentUid ?? ''],
          ['Status', (row) => row.status ?? ''],
          ['Equity (USDT)', (row) => usd(equity.data?.get(row.uid)), true],
        ]}
      />
      {equity.error && <small class="error">{errorText(equity.error)}</small>}
      {pages > 1 && (
        <div class="toolbar">
          <button type="button" class="outline small" disabled={page === 0} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span>
            Page {page + 1} of {pages} ({matching.length} accounts)
          </span>
          <button
            type="button"
            class="outline small"
            disabled={page + 1 >= pages}
            onClick={() => setPage(page + 1)}
          >
            Next
          </button>
        </div>
      )}
    </section>
  );
}
