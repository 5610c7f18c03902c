/**
 * One account, refreshed every 2 s from the operator API: balances per wallet (with margin
 * debt), futures positions (liquidation price, unrealised PnL), risk ratios, open orders, fills, order
 * history, API keys (create, freeze, unfreeze, revoke), sub-accounts, and the money actions.
 */
import { allPages, ApiError, operator } from '../api.ts';
import { ActionForm, DataTable, type Action } from '../components.tsx';
import { short, time } from '../format.ts';
import { usePoll } from '../hooks.ts';
import { RiskTables, type AccountRisk } from './account-risk.tsx';
import {
  equityOf,
  loadUsdPrices,
  usd,
  type AccountSummary,
  type BalanceRow,
  type PositionRow,
} from '../accounts-data.ts';

const REFRESH_MS = 2_000;

interface KeyRow {
  apiKey: string;
  label: string;
  permissions: string[];
  ipList: string[];
  status?: string;
}

interface AccountView extends AccountSummary {
  apiKeys: KeyRow[];
  risk?: AccountRisk;
  wallets?: Record<string, Record<string, { available: string; frozen: string; borrowed: string }>>;
}

/** The balances of GET /admin/v1/accounts/{uid}, for a server without the balances list. */
function walletRows(account: AccountView): BalanceRow[] {
  return Object.entries(account.wallets ?? {}).flatMap(([wallet, coins]) =>
    Object.entries(coins).map(([coin, balance]) => ({ wallet, coin, ...balance })),
  );
}

interface OrderRow {
  orderId: string;
  category: string;
  symbol: string;
  side: string;
  orderType: string;
  price: string;
  qty: string;
  cumExecQty: string;
  avgPrice: string;
  status: string;
  createdTime: string;
}

interface FillRow {
  execId: string;
  orderId: string;
  category: string;
  symbol: string;
  side: string;
  execPrice: string;
  execQty: string;
  execValue?: string;
  fee?: string;
  feeCoin?: string;
  createdTime: string;
  [field: string]: unknown;
}

/** A list the server may not serve yet: 404 (40404) reads as "not on this server". */
async function optional<T>(load: () => Promise<T>): Promise<T | 'unavailable'> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return 'unavailable';
    throw error;
  }
}

interface BillRow {
  billId: string;
  wallet: string;
  coin: string;
  symbol: string;
  businessType: string;
  amount: string;
  fee: string;
  balanceAfter: string;
  createdTime: string;
}

interface PlanRow {
  planId: string;
  category: string;
  symbol: string;
  planType: string;
  triggerType: string;
  triggerPrice: string;
  orderType: string;
  executePrice: string;
  size: string;
  side: string;
  status: string;
  createdTime: string;
}

interface FundingRecord {
  id: string;
  coin: string;
  amount: string;
  type: string;
  subType: string;
  status: string;
  ts: string;
}

async function loadAccount(uid: string) {
  const [
    account,
    balances,
    positions,
    openOrders,
    orders,
    fills,
    subAccounts,
    prices,
    bills,
    plans,
    funding,
  ] = await Promise.all([
    operator<AccountView>('GET', `/accounts/${uid}`),
    optional(() => operator<BalanceRow[]>('GET', `/accounts/${uid}/balances`)),
    optional(() => operator<PositionRow[]>('GET', `/accounts/${uid}/positions`)),
    optional(() => operator<{ list: OrderRow[] }>('GET', `/accounts/${uid}/orders?status=open&limit=100`)),
    optional(() => operator<{ list: OrderRow[] }>('GET', `/accounts/${uid}/orders?status=closed&limit=50`)),
    optional(() => operator<{ list: FillRow[] }>('GET', `/accounts/${uid}/fills?limit=50`)),
    optional(() => allPages<AccountSummary>('/accounts', { parentUid: uid }, 1000)),
    loadUsdPrices(),
    optional(() => operator<{ list: BillRow[] }>('GET', `/accounts/${uid}/bills?limit=50`)),
    optional(() =>
      operator<{ list: PlanRow[] }>('GET', `/accounts/${uid}/plan-orders?status=live&limit=100`),
    ),
    optional(() => operator<FundingRecord[]>('GET', `/accounts/${uid}/funding`)),
  ]);
  return {
    account,
    balances,
    positions,
    openOrders,
    orders,
    fills,
    subAccounts,
    prices,
    bills,
    plans,
    funding,
  };
}

const listOf = <T,>(value: { list: T[] } | 'unavailable' | undefined) =>
  value === 'unavailable' || value === undefined ? undefined : value.list;

function Unavailable({ what }: { what: string }) {
  return <p class="muted">Not served by this server ({what}).</p>;
}

const ORDER_COLUMNS: [string, (row: OrderRow) => string, boolean?][] = [
  ['Order id', (row) => row.orderId],
  ['Category', (row) => row.category],
  ['Symbol', (row) => row.symbol],
  ['Side', (row) => row.side],
  ['Type', (row) => row.orderType],
  ['Price', (row) => row.price, true],
  ['Qty', (row) => row.qty, true],
  ['Filled', (row) => row.cumExecQty, true],
  ['Avg price', (row) => row.avgPrice, true],
  ['Status', (row) => row.status],
  ['Created', (row) => time(row.createdTime)],
];

function keyActions(uid: string): Action[] {
  return [
    {
      id: 'key-create',
      title: 'Create API key',
      method: 'POST',
      path: `/accounts/${uid}/api-keys`,
      fields: [
        { name: 'label', placeholder: 'bot' },
        { name: 'permissions', type: 'list', placeholder: 'spot_trade, contract_trade, read (default: all)' },
        { name: 'ipList', type: 'list', placeholder: '127.0.0.1 (default: any)' },
        { name: 'passphrase', type: 'password', placeholder: 'random if empty' },
      ],
    },
  ];
}

function KeyButtons({ row, onDone }: { row: KeyRow; onDone: () => void }) {
  const act = async (method: 'PATCH' | 'DELETE', body?: unknown) => {
    if (method === 'DELETE' && !confirm(`Revoke ${row.apiKey}? Bots using it stop at once.`)) return;
    try {
      await operator(method, `/api-keys/${row.apiKey}`, body);
    } catch (error) {
      alert(error instanceof ApiError ? `${error.code} ${error.msg}` : String(error));
    }
    onDone();
  };
  const frozen = row.status === 'frozen';
  return (
    <div class="buttons">
      <button
        type="button"
        class="outline small"
        onClick={() => act('PATCH', { status: frozen ? 'normal' : 'frozen' })}
      >
        {frozen ? 'Unfreeze' : 'Freeze'}
      </button>
      <button type="button" class="outline secondary small" onClick={() => act('DELETE')}>
        Revoke
      </button>
    </div>
  );
}

function SettleButtons({ id, onDone }: { id: string; onDone: () => void }) {
  const settle = async (status: 'success' | 'fail') => {
    try {
      await operator('POST', `/funding/${id}/settle`, { status });
    } catch (error) {
      alert(error instanceof ApiError ? `${error.code} ${error.msg}` : String(error));
    }
    onDone();
  };
  return (
    <div class="buttons">
      <button type="button" class="outline small" onClick={() => settle('success')}>
        Settle
      </button>
      <button type="button" class="outline secondary small" onClick={() => settle('fail')}>
        Reject
      </button>
    </div>
  );
}

export function Account({ uid }: { uid: string }) {
  const { data, error, refresh } = usePoll(() => loadAccount(uid), REFRESH_MS, [uid]);
  const account = data?.account;
  const balances = data?.balances === 'unavailable' ? walletRows(data.account) : data?.balances;
  const positions = data?.positions === 'unavailable' ? undefined : data?.positions;
  const equity = data && balances && positions ? equityOf(balances, positions, data.prices) : undefined;
  const moneyFields = [
    { name: 'coin', required: true, value: 'USDT' },
    { name: 'amount', type: 'number' as const, required: true },
    { name: 'wallet', placeholder: account?.mode === 'unified' ? 'unified' : 'spot, usdt_futures, …' },
    { name: 'status', type: 'select' as const, options: ['success', 'pending'] },
  ];
  return (
    <section id="account-view" data-uid={uid}>
      <nav aria-label="breadcrumb">
        <ul>
          <li>
            <a href="#/accounts">Accounts</a>
          </li>
          <li>{uid}</li>
        </ul>
      </nav>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {account && (
        <dl class="facts" id="account-facts">
          <dt>uid</dt>
          <dd>{account.uid}</dd>
          <dt>Kind</dt>
          <dd>{account.kind}</dd>
          <dt>Mode</dt>
          <dd>{account.mode}</dd>
          <dt>Label</dt>
          <dd>{account.label || '—'}</dd>
          <dt>Parent</dt>
          <dd>
            {account.parentUid ? <a href={`#/accounts/${account.parentUid}`}>{account.parentUid}</a> : '—'}
          </dd>
          <dt>Equity (USDT)</dt>
          <dd data-field="equity">{usd(equity)}</dd>
          <dt>Created</dt>
          <dd>{time(account.createdTime)}</dd>
        </dl>
      )}
      <h3>Balances</h3>
      {
        <DataTable
          id="balances"
          rows={balances}
          rowKey={(row) => `${row.wallet}|${row.coin}`}
          empty="No balance."
          columns={[
            ['Wallet', (row) => row.wallet],
            ['Coin', (row) => row.coin],
            ['Available', (row) => row.available, true],
            ['Frozen', (row) => row.frozen, true],
            ['Margin', (row) => row.margin ?? '', true],
            ['Debt (borrowed + interest)', (row) => debtOf(row), true],
          ]}
        />
      }
      <h3>Positions</h3>
      {data?.positions === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/positions" />
      ) : (
        <DataTable
          id="positions"
          rows={positions}
          rowKey={(row) => `${row.category}|${row.symbol}|${row.posSide}|${row.marginMode}`}
          empty="No open position."
          columns={[
            ['Symbol', (row) => `${row.symbol} ${row.category}`],
            ['Side', (row) => row.posSide],
            ['Size', (row) => row.total, true],
            ['Entry', (row) => row.avgPrice, true],
            ['Mark', (row) => row.markPrice, true],
            ['Liq. price', (row) => row.liquidationPrice, true],
            ['Unrealised PnL', (row) => row.unrealisedPnl, true],
            ['Margin', (row) => short(row.positionBalance, 4), true],
            ['Leverage', (row) => `${row.leverage}× ${row.marginMode}`],
          ]}
        />
      )}
      <h3>Risk</h3>
      {account && <RiskTables risk={account.risk} />}
      <h3>Open orders</h3>
      {data?.openOrders === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/orders" />
      ) : (
        <DataTable
          id="open-orders"
          rows={listOf(data?.openOrders)}
          rowKey={(row) => row.orderId}
          empty="No open order."
          columns={ORDER_COLUMNS}
        />
      )}
      <h3>Fills</h3>
      {data?.fills === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/fills" />
      ) : (
        <DataTable
          id="fills"
          rows={listOf(data?.fills)}
          rowKey={(row) => row.execId}
          empty="No fill."
          columns={[
            ['Fill id', (row) => row.execId],
            ['Order id', (row) => row.orderId],
            ['Symbol', (row) => `${row.symbol} ${row.category}`],
            ['Side', (row) => row.side],
            ['Price', (row) => row.execPrice, true],
            ['Qty', (row) => row.execQty, true],
            ['Fee', (row) => `${row.fee ?? ''} ${row.feeCoin ?? ''}`, true],
            ['Time', (row) => time(row.createdTime)],
          ]}
        />
      )}
      <h3>Plan orders</h3>
      {data?.plans === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/plan-orders" />
      ) : (
        <DataTable
          id="plan-orders"
          rows={listOf(data?.plans)}
          rowKey={(row) => row.planId}
          empty="No live plan order."
          columns={[
            ['Plan id', (row) => row.planId],
            ['Symbol', (row) => `${row.symbol} ${row.category}`],
            ['Type', (row) => row.planType],
            ['Side', (row) => row.side],
            ['Trigger', (row) => `${row.triggerPrice} (${row.triggerType})`, true],
            ['Order', (row) => `${row.orderType} ${row.executePrice}`],
            ['Size', (row) => row.size, true],
            ['Status', (row) => row.status],
            ['Created', (row) => time(row.createdTime)],
          ]}
        />
      )}
      <h3>Bills</h3>
      {data?.bills === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/bills" />
      ) : (
        <DataTable
          id="bills"
          rows={listOf(data?.bills)}
          rowKey={(row) => row.billId}
          empty="No bill."
          columns={[
            ['Bill id', (row) => row.billId],
            ['Wallet', (row) => row.wallet],
            ['Coin', (row) => row.coin],
            ['Type', (row) => row.businessType],
            ['Symbol', (row) => row.symbol],
            ['Amount', (row) => row.amount, true],
            ['Fee', (row) => row.fee, true],
            ['Balance after', (row) => row.balanceAfter, true],
            ['Time', (row) => time(row.createdTime)],
          ]}
        />
      )}
      <h3>Order history</h3>
      {data?.orders !== 'unavailable' && (
        <DataTable
          id="order-history"
          rows={listOf(data?.orders)}
          rowKey={(row) => row.orderId}
          empty="No closed order."
          columns={ORDER_COLUMNS}
        />
      )}
      <h3>API keys</h3>
      <DataTable
        id="api-keys"
        rows={account?.apiKeys}
        rowKey={(row) => row.apiKey}
        empty="No API key."
        columns={[
          ['API key', (row) => <code>{row.apiKey}</code>],
          ['Label', (row) => row.label],
          ['Permissions', (row) => row.permissions.join(' ')],
          ['IP whitelist', (row) => row.ipList.join(' ') || 'any'],
          ['Status', (row) => row.status ?? 'normal'],
          ['', (row) => <KeyButtons row={row} onDone={refresh} />],
        ]}
      />
      {keyActions(uid).map((action) => (
        <ActionForm key={action.id} action={action} onDone={refresh} />
      ))}
      <h3>Sub-accounts</h3>
      {data?.subAccounts === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts?parentUid=" />
      ) : (
        <DataTable
          id="sub-accounts"
          rows={data?.subAccounts}
          rowKey={(row) => row.uid}
          empty="No sub-account."
          columns={[
            ['uid', (row) => <a href={`#/accounts/${row.uid}`}>{row.uid}</a>],
            ['Kind', (row) => row.kind],
            ['Mode', (row) => row.mode],
            ['Label', (row) => row.label],
          ]}
        />
      )}
      <h3>Deposits and withdrawals</h3>
      {data?.funding === 'unavailable' ? (
        <Unavailable what="GET /admin/v1/accounts/{uid}/funding" />
      ) : (
        <DataTable
          id="funding"
          rows={data?.funding}
          rowKey={(row) => row.id}
          empty="No deposit or withdrawal."
          columns={[
            ['Record id', (row) => row.id],
            ['Type', (row) => `${row.type} (${row.subType})`],
            ['Coin', (row) => row.coin],
            ['Amount', (row) => row.amount, true],
            ['Status', (row) => row.status],
            ['Time', (row) => time(row.ts)],
            ['', (row) => (row.status === 'pending' ? <SettleButtons id={row.id} onDone={refresh} /> : null)],
          ]}
        />
      )}
      <h3>Money</h3>
      <div class="actions-grid">
        <ActionForm
          action={{
            id: 'deposit',
            title: 'Deposit',
            method: 'POST',
            path: `/accounts/${uid}/deposits`,
            fields: moneyFields,
          }}
          onDone={refresh}
        />
        <ActionForm
          action={{
            id: 'withdraw',
            title: 'Withdraw',
            method: 'POST',
            path: `/accounts/${uid}/withdrawals`,
            fields: moneyFields,
          }}
          onDone={refresh}
        />
      </div>
      <p class="muted">
        The risk ratio is not in the operator API of this server; the account's own API key reads it (
        <code>/api/v3/account/assets</code>, <code>/api/v2/margin/crossed/account/risk-rate</code>).
      </p>
    </section>
  );
}

function debtOf(row: BalanceRow): string {
  const borrowed = row.borrowed;
  const interest = row.interest ?? '0';
  if (borrowed === '0' && interest === '0') return '0';
  return interest === '0' ? borrowed : `${borrowed} + ${interest}`;
}
