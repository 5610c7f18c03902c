/**
 * The liquidity provider: its settings, read and changed at run time (GET and PATCH
 * /admin/v1/liquidity; off cancels its ladder), and its inventory (GET
 * /admin/v1/liquidity/inventory: balances per wallet, futures positions per contract).
 */
import { operator } from '../api.ts';
import { ActionForm, DataTable } from '../components.tsx';
import { short } from '../format.ts';
import { usePoll } from '../hooks.ts';
import type { BalanceRow, PositionRow } from '../accounts-data.ts';

interface Settings {
  enabled: boolean;
  uid: string | null;
  markets: string[];
  levels: string;
  spread: string;
  step: string;
  notional: string;
  intervalMs: string;
  maxPosition: string;
  leverage: string;
}

interface Inventory {
  uid: string | null;
  balances: BalanceRow[];
  positions: PositionRow[];
}

const NUMBERS: [name: keyof Settings, label: string][] = [
  ['levels', 'levels a side'],
  ['spread', 'spread (ratio)'],
  ['step', 'step (ratio)'],
  ['notional', 'size a level (quote)'],
  ['intervalMs', 'interval (ms)'],
  ['maxPosition', 'max position (quote)'],
  ['leverage', 'leverage'],
];

async function loadLiquidity() {
  const [settings, inventory] = await Promise.all([
    operator<Settings>('GET', '/liquidity'),
    operator<Inventory>('GET', '/liquidity/inventory'),
  ]);
  return { settings, inventory };
}

/**
 * The fields default to the server's settings: a field the operator has not typed in follows
 * them as they change, one being typed in keeps what is typed.
 */
function SettingsForm({ settings, onDone }: { settings: Settings; onDone: () => void }) {
  return (
    <ActionForm
      action={{
        id: 'liquidity-settings',
        title: 'Liquidity provider settings',
        submitLabel: 'Apply',
        method: 'PATCH',
        path: '/liquidity',
        fields: [
          { name: 'enabled', type: 'select', options: ['on', 'off'], value: settings.enabled ? 'on' : 'off' },
          ...NUMBERS.map(([name, label]) => ({
            name,
            label,
            type: 'number' as const,
            value: String(settings[name]),
          })),
        ],
      }}
      onDone={onDone}
    />
  );
}

export function LiquidityProvider() {
  const { data, error, refresh } = usePoll(loadLiquidity, 3_000, []);
  const inventory = data?.inventory;
  return (
    <details open id="liquidity">
      <summary>
        <strong>Liquidity provider</strong>
      </summary>
      {error && <p class="error">{error}</p>}
      {data && (
        <p>
          {data.settings.enabled ? 'Quoting' : 'Off'}{' '}
          {data.settings.markets.join(', ') === '*' ? 'every market' : data.settings.markets.join(', ')}
          {inventory?.uid && (
            <>
              {' '}
              from house account <a href={`#/accounts/${inventory.uid}`}>{inventory.uid}</a>
            </>
          )}
          . Changes last until a restart or a reset (then <code>BOURSE_LIQUIDITY_*</code> again).
        </p>
      )}
      {data && <SettingsForm settings={data.settings} onDone={refresh} />}
      {inventory && (
        <>
          <h4>Inventory</h4>
          <DataTable
            id="house-positions"
            rows={inventory.positions}
            rowKey={(row) => `${row.category}|${row.symbol}|${row.posSide}`}
            empty="No futures position."
            columns={[
              ['Contract', (row) => `${row.symbol} ${row.category}`],
              ['Side', (row) => row.posSide],
              ['Size', (row) => row.total, true],
              ['Entry', (row) => row.avgPrice, true],
              ['Unrealised PnL', (row) => row.unrealisedPnl, true],
              ['Liq. price', (row) => row.liquidationPrice, true],
            ]}
          />
          <DataTable
            id="house-balances"
            rows={inventory.balances}
            rowKey={(row) => `${row.wallet}|${row.coin}`}
            empty="No balance."
            columns={[
              ['Wallet', (row) => row.wallet],
              ['Coin', (row) => row.coin],
              ['Available', (row) => short(row.available, 8), true],
              ['Frozen (quoting)', (row) => short(row.frozen, 8), true],
              ['Margin', (row) => short(row.margin, 8), true],
            ]}
          />
        </>
      )}
    </details>
  );
}
