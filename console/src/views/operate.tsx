/**
 * Operate: every operator action as a form, answered with the server's data or its code and
 * message. The account's own actions (keys, deposits) are also on its page.
 */
import { ActionForm, DataTable, type Action } from '../components.tsx';
import { usePoll } from '../hooks.ts';
import { allPages, operator } from '../api.ts';
import { short, time } from '../format.ts';
import type { AccountSummary, BalanceRow, PositionRow } from '../accounts-data.ts';

const CATEGORIES = [
  'SPOT',
  'MARGIN',
  'USDT-FUTURES',
  'COIN-FUTURES',
  'USDC-FUTURES',
  'SUSDT-FUTURES',
  'SCOIN-FUTURES',
  'SUSDC-FUTURES',
];
const FUTURES = CATEGORIES.filter((name) => name.endsWith('FUTURES'));

const ACCOUNT_ACTIONS: Action[] = [
  {
    id: 'account-create',
    title: 'Create account',
    method: 'POST',
    path: '/accounts',
    fields: [
      { name: 'mode', type: 'select', options: ['classic', 'unified'] },
      { name: 'kind', type: 'select', options: ['main', 'sub', 'virtual'] },
      { name: 'parentUid', label: 'parent uid', placeholder: 'for sub and virtual' },
      { name: 'label' },
    ],
  },
  {
    id: 'key-create',
    title: 'Create API key',
    method: 'POST',
    path: '/accounts/:uid/api-keys',
    fields: [
      { name: 'uid', required: true, inPath: true },
      { name: 'label' },
      { name: 'permissions', type: 'list', placeholder: 'default: all' },
      { name: 'ipList', type: 'list', placeholder: 'default: any address' },
      { name: 'passphrase', type: 'password', placeholder: 'random if empty' },
    ],
  },
];

const KEY_ACTIONS: Action[] = [
  {
    id: 'key-list',
    title: 'List API keys',
    method: 'GET',
    path: '/api-keys?uid=:uid&status=:status',
    fields: [
      { name: 'uid', inPath: true, placeholder: 'any account' },
      { name: 'status', type: 'select', options: ['', 'normal', 'frozen'], inPath: true },
    ],
  },
  {
    id: 'key-edit',
    title: 'Edit API key',
    method: 'PATCH',
    path: '/api-keys/:apiKey',
    fields: [
      { name: 'apiKey', label: 'API key', required: true, inPath: true },
      { name: 'status', type: 'select', options: ['', 'normal', 'frozen'] },
      { name: 'permissions', type: 'list', placeholder: 'unchanged if empty' },
      { name: 'ipList', type: 'list', placeholder: 'unchanged if empty' },
      { name: 'label', placeholder: 'unchanged if empty' },
    ],
  },
  {
    id: 'key-revoke',
    title: 'Revoke API key',
    method: 'DELETE',
    path: '/api-keys/:apiKey',
    fields: [{ name: 'apiKey', label: 'API key', required: true, inPath: true }],
    confirm: 'Revoke this API key? Bots using it stop at once.',
  },
];

const moneyFields = (direction: string) => [
  { name: 'uid', required: true, inPath: true },
  { name: 'coin', required: true, value: 'USDT' },
  { name: 'amount', type: 'number' as const, required: true },
  { name: 'wallet', placeholder: 'default: spot (classic) / unified' },
  { name: 'subType', type: 'select' as const, options: ['onchain', 'internal', 'fast'] },
  {
    name: 'status',
    type: 'select' as const,
    options: ['success', 'pending'],
    label: `status (pending ${direction})`,
  },
];

const MONEY_ACTIONS: Action[] = [
  {
    id: 'deposit',
    title: 'Deposit',
    method: 'POST',
    path: '/accounts/:uid/deposits',
    fields: moneyFields('waits to be settled'),
  },
  {
    id: 'withdraw',
    title: 'Withdraw',
    method: 'POST',
    path: '/accounts/:uid/withdrawals',
    fields: moneyFields('freezes the amount'),
  },
  {
    id: 'settle',
    title: 'Settle a pending deposit or withdrawal',
    submitLabel: 'Settle',
    method: 'POST',
    path: '/funding/:recordId/settle',
    fields: [
      { name: 'recordId', label: 'record id', required: true, inPath: true },
      { name: 'status', type: 'select', options: ['success', 'fail'] },
    ],
  },
];

const MARKET_ACTIONS: Action[] = [
  {
    id: 'price',
    title: 'Set index price',
    method: 'PUT',
    path: '/prices',
    fields: [
      { name: 'category', type: 'select', options: CATEGORIES, value: 'USDT-FUTURES' },
      { name: 'symbol', required: true, value: 'BTCUSDT' },
      { name: 'indexPrice', label: 'index price', type: 'number', required: true },
    ],
  },
  {
    id: 'funding-rate',
    title: 'Fix funding rate',
    method: 'PUT',
    path: '/funding-rates',
    fields: [
      { name: 'category', type: 'select', options: FUTURES },
      { name: 'symbol', required: true, value: 'BTCUSDT' },
      { name: 'rate', placeholder: '0.0001, or empty to release', type: 'number' },
    ],
    body: (values) => ({
      category: values.category,
      symbol: values.symbol,
      rate: values.rate ? values.rate : null,
    }),
  },
  {
    id: 'instrument-add',
    title: 'Add instrument',
    method: 'POST',
    path: '/instruments',
    fields: [
      {
        name: 'record',
        label: 'fields (JSON)',
        type: 'json',
        required: true,
        placeholder: '{"category":"SPOT","symbol":"SOLUSDT","baseCoin":"SOL","quoteCoin":"USDT"}',
      },
    ],
  },
  {
    id: 'instrument-patch',
    title: 'Edit instrument (status, fees, …)',
    method: 'PATCH',
    path: '/instruments',
    fields: [
      { name: 'category', type: 'select', options: CATEGORIES },
      { name: 'symbol', required: true },
      {
        name: 'status',
        type: 'select',
        options: ['', 'listed', 'online', 'limit_open', 'offline', 'restricted'],
      },
      {
        name: 'changes',
        label: 'other fields (JSON)',
        type: 'json',
        placeholder: '{"takerFeeRate":"0.002"}',
      },
    ],
  },
];

const BROKER_ACTIONS: Action[] = [
  {
    id: 'agent-register',
    title: 'Register agent',
    method: 'POST',
    path: '/agents',
    fields: [
      { name: 'uid', required: true },
      { name: 'rebateRate', label: 'rebate rate', required: true, placeholder: '0.3' },
      { name: 'spotRebateRate', label: 'spot rate' },
      { name: 'marginRebateRate', label: 'margin rate' },
      { name: 'futuresRebateRate', label: 'futures rate' },
    ],
  },
  {
    id: 'agent-get',
    title: 'Show agent',
    method: 'GET',
    path: '/agents/:uid',
    fields: [{ name: 'uid', required: true, inPath: true }],
  },
  {
    id: 'agent-customer',
    title: 'Add customer to agent',
    method: 'POST',
    path: '/agents/:uid/customers',
    fields: [
      { name: 'uid', label: 'agent uid', required: true, inPath: true },
      { name: 'customerUid', label: 'customer uid', required: true },
    ],
  },
  {
    id: 'kyc',
    title: 'Set KYC result',
    method: 'PUT',
    path: '/accounts/:uid/kyc',
    fields: [
      { name: 'uid', required: true, inPath: true },
      { name: 'result', type: 'select', options: ['passed', 'not_passed'] },
    ],
  },
];

const VENUE_ACTIONS: Action[] = [
  {
    id: 'reset',
    title: 'Reset the venue',
    method: 'POST',
    path: '/reset',
    fields: [],
    confirm: 'Reset the venue to its first-start state? Every account, order and balance is dropped.',
    body: () => ({}),
  },
];

function Clock() {
  const clock = usePoll(
    () => operator<{ mode: string; nowMs: string; engineTimeMs: string }>('GET', '/clock'),
    2_000,
    [],
  );
  return (
    <article>
      <header>
        <strong>Clock</strong>
      </header>
      {clock.data && (
        <dl class="facts" id="clock">
          <dt>Mode</dt>
          <dd>{clock.data.mode}</dd>
          <dt>Now</dt>
          <dd>{time(clock.data.nowMs)}</dd>
          <dt>Engine time</dt>
          <dd>{time(clock.data.engineTimeMs)}</dd>
        </dl>
      )}
      {clock.error && <p class="error">{clock.error}</p>}
      <ActionForm
        action={{
          id: 'clock-advance',
          title: 'Advance simulated clock',
          submitLabel: 'Advance',
          method: 'POST',
          path: '/clock/advance',
          fields: [{ name: 'ms', label: 'milliseconds', type: 'number', required: true, value: '60000' }],
        }}
        onDone={clock.refresh}
      />
    </article>
  );
}

/** The liquidity provider's house account (label `liquidity-provider`): its inventory. */
async function loadHouse() {
  const [house] = await allPages<AccountSummary>('/accounts', { label: 'liquidity-provider' }, 1);
  if (!house) return null;
  const [balances, positions] = await Promise.all([
    operator<BalanceRow[]>('GET', `/accounts/${house.uid}/balances`),
    operator<PositionRow[]>('GET', `/accounts/${house.uid}/positions`),
  ]);
  return { uid: house.uid, balances, positions };
}

function LiquidityProvider() {
  const { data, error } = usePoll(loadHouse, 5_000, []);
  return (
    <details open>
      <summary>
        <strong>Liquidity provider</strong>
      </summary>
      {error && <p class="error">{error}</p>}
      {data === null && (
        <p class="muted">No house account: the liquidity provider is off (BOURSE_LIQUIDITY=off).</p>
      )}
      {data && (
        <>
          <p>
            House account <a href={`#/accounts/${data.uid}`}>{data.uid}</a>. Its settings are set at start (
            <code>BOURSE_LIQUIDITY_*</code>); its inventory:
          </p>
          <DataTable
            id="house-positions"
            rows={data.positions}
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
            rows={data.balances}
            rowKey={(row) => `${row.wallet}|${row.coin}`}
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

function Group({ title, actions }: { title: string; actions: Action[] }) {
  return (
    <details open>
      <summary>
        <strong>{title}</strong>
      </summary>
      <div class="actions-grid">
        {actions.map((action) => (
          <ActionForm key={action.id} action={action} />
        ))}
      </div>
    </details>
  );
}

export function Operate() {
  return (
    <section>
      <h2>Operate</h2>
      <Group title="Accounts and keys" actions={[...ACCOUNT_ACTIONS, ...KEY_ACTIONS]} />
      <Group title="Deposits and withdrawals" actions={MONEY_ACTIONS} />
      <Group title="Prices and instruments" actions={MARKET_ACTIONS} />
      <Clock />
      <Group title="Brokers, agents and KYC" actions={BROKER_ACTIONS} />
      <LiquidityProvider />
      <Group title="Venue" actions={VENUE_ACTIONS} />
      <p class="muted">
        Pausing a price feed is not in the operator API of this server: feeds are set with{' '}
        <code>BOURSE_FEED</code> at start (a simulated clock, <code>BOURSE_CLOCK=simulated</code>, holds every
        feed until the clock is advanced).
      </p>
    </section>
  );
}
