/**
 * One account, refreshed every 2 s from the operator API: balances per wallet (with margin
 * debt), futures positions (liquidation price, unrealised PnL), risk ratios, open orders,
 * fills, order history, API keys (create, freeze, unfreeze, revoke), sub-accounts, and the
 * money actions. What it loads is in account-data.ts, its buttons in account-parts.tsx.
 */
import { ActionForm, DataTable } from '../components.tsx';
import { short, time } from '../format.ts';
import { usePoll } from '../hooks.ts';
import { equityOf, usd, type BalanceRow } from '../accounts-data.ts';
import { listOf, loadAccount, servedRows, walletRows } from '../account-data.ts';
import { RiskTables } from './account-risk.tsx';
import { KeyButtons, keyActions, ORDER_COLUMNS, ServedTable, SettleButtons } from './account-parts.tsx';

const REFRESH_MS = 2_000;

export function Account({ uid }: { uid: string }) {
  const { data, error, refresh } = usePoll(() => loadAccount(uid), REFRESH_MS, [uid]);
  const account = data?.account;
  const balances = data?.balances === 'unavailable' ? walletRows(data.account) : data?.balances;
  const positions = servedRows(data?.positions);
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
      <ServedTable
        unavailable={data?.positions === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/positions"
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
      <h3>Risk</h3>
      {account && <RiskTables risk={account.risk} />}
      <h3>Open orders</h3>
      <ServedTable
        unavailable={data?.openOrders === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/orders"
        id="open-orders"
        rows={listOf(data?.openOrders)}
        rowKey={(row) => row.orderId}
        empty="No open order."
        columns={ORDER_COLUMNS}
      />
      <h3>Fills</h3>
      <ServedTable
        unavailable={data?.fills === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/fills"
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
      <h3>Plan orders</h3>
      <ServedTable
        unavailable={data?.plans === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/plan-orders"
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
      <h3>Bills</h3>
      <ServedTable
        unavailable={data?.bills === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/bills"
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
      <ServedTable
        unavailable={data?.subAccounts === 'unavailable'}
        what="GET /admin/v1/accounts?parentUid="
        id="sub-accounts"
        rows={servedRows(data?.subAccounts)}
        rowKey={(row) => row.uid}
        empty="No sub-account."
        columns={[
          ['uid', (row) => <a href={`#/accounts/${row.uid}`}>{row.uid}</a>],
          ['Kind', (row) => row.kind],
          ['Mode', (row) => row.mode],
          ['Label', (row) => row.label],
        ]}
      />
      <h3>Deposits and withdrawals</h3>
      <ServedTable
        unavailable={data?.funding === 'unavailable'}
        what="GET /admin/v1/accounts/{uid}/funding"
        id="funding"
        rows={servedRows(data?.funding)}
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
