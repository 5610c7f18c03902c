/**
 * The operator API (docs/operator.md): bearer token; accounts, keys, deposits and
 * withdrawals, prices, instruments and the clock, each through real HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { publicGet, send } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

const ROUTES: [string, string, unknown][] = [
  ['POST', '/admin/v1/accounts', {}],
  ['GET', '/admin/v1/accounts/1000000001', undefined],
  ['POST', '/admin/v1/accounts/1000000001/api-keys', {}],
  ['POST', '/admin/v1/accounts/1000000001/deposits', { coin: 'USDT', amount: '1' }],
  ['POST', '/admin/v1/accounts/1000000001/withdrawals', { coin: 'USDT', amount: '1' }],
  ['PUT', '/admin/v1/prices', { category: 'SPOT', symbol: 'BTCUSDT', indexPrice: '1' }],
  ['GET', '/admin/v1/instruments', undefined],
  ['POST', '/admin/v1/instruments', {}],
  ['PATCH', '/admin/v1/instruments', {}],
  ['GET', '/admin/v1/clock', undefined],
  ['POST', '/admin/v1/clock/advance', { ms: '1' }],
  ['PUT', '/admin/v1/funding-rates', { category: 'USDT-FUTURES', symbol: 'BTCUSDT', rate: '0.01' }],
  ['POST', '/admin/v1/funding/100000000000000001/settle', { status: 'success' }],
  ['POST', '/admin/v1/agents', { uid: '1000000001', rebateRate: '0.5' }],
  ['GET', '/admin/v1/agents/1000000001', undefined],
  ['POST', '/admin/v1/agents/1000000001/customers', { customerUid: '1000000002' }],
  ['PUT', '/admin/v1/accounts/1000000001/kyc', { result: 'passed' }],
  ['GET', '/admin/v1/accounts', undefined],
  ['GET', '/admin/v1/accounts/1000000001/orders', undefined],
  ['GET', '/admin/v1/accounts/1000000001/fills', undefined],
  ['GET', '/admin/v1/accounts/1000000001/positions', undefined],
  ['GET', '/admin/v1/accounts/1000000001/balances', undefined],
  ['GET', '/admin/v1/api-keys', undefined],
  ['PATCH', '/admin/v1/api-keys/bg_0123456789abcdef', { status: 'frozen' }],
  ['DELETE', '/admin/v1/api-keys/bg_0123456789abcdef', undefined],
  ['POST', '/admin/v1/reset', {}],
];

test('operator route when the bearer token is missing or wrong answers 401 and changes nothing', async () => {
  const { stateHash } = await import('../../src/engine/state-hash.ts');
  const before = stateHash(server.services.sequencer.exchange.state);
  const anonymous = new OperatorClient(server.url, null);
  const wrong = new OperatorClient(server.url, `${TEST_OPERATOR_TOKEN}x`);
  const short = new OperatorClient(server.url, TEST_OPERATOR_TOKEN.slice(0, -1));
  for (const [method, path, body] of ROUTES) {
    for (const client of [anonymous, wrong, short]) {
      const response = await client.call(method, path, body);
      assert.equal(response.status, 401, `${method} ${path}: ${response.text}`);
      assert.deepEqual(
        { code: response.body?.code, msg: response.body?.msg },
        { code: '40001', msg: 'operator token missing or wrong' },
      );
    }
    for (const authorization of [
      `Basic ${TEST_OPERATOR_TOKEN}`,
      `bearer${TEST_OPERATOR_TOKEN}`,
      TEST_OPERATOR_TOKEN,
    ]) {
      const response = await send(`${server.url}${path}`, {
        method,
        headers: { authorization, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      assert.equal(response.status, 401, `${method} ${path} with ${authorization.slice(0, 7)}`);
    }
  }
  assert.equal(stateHash(server.services.sequencer.exchange.state), before);
});

test('operator route when called with a venue API key instead of the token answers 401', async () => {
  const client = new SigningClient(server.url, server.credentials);
  const response = await client.get('/admin/v1/clock');
  assert.equal(response.status, 401);
});

test('create account when called with defaults makes a classic main account', async () => {
  const { uid } = await operator.createAccount({ label: 'alice' });
  assert.match(uid, /^\d{10}$/);
  const view = await operator.getAccount(uid);
  assert.deepEqual(
    { kind: view.kind, mode: view.mode, parentUid: view.parentUid, label: view.label },
    { kind: 'main', mode: 'classic', parentUid: null, label: 'alice' },
  );
  assert.match(view.createdTime, /^\d{13}$/);
  assert.deepEqual(view.wallets, {});
  assert.deepEqual(view.apiKeys, []);
});

test('create account when it is a sub-account needs an existing main parent', async () => {
  const { uid: parent } = await operator.createAccount();
  const { uid } = await operator.createAccount({ kind: 'sub', parentUid: parent });
  assert.equal((await operator.getAccount(uid)).parentUid, parent);
  const orphan = await operator.call('POST', '/admin/v1/accounts', { kind: 'sub' });
  assert.equal(orphan.body?.code, '40019');
  const unknown = await operator.call('POST', '/admin/v1/accounts', { kind: 'sub', parentUid: '999' });
  assert.deepEqual([unknown.body?.code, unknown.body?.msg], ['40034', 'Parameter parentUid does not exist']);
  const nested = await operator.call('POST', '/admin/v1/accounts', { kind: 'sub', parentUid: uid });
  assert.equal(nested.body?.code, '40034', 'a sub-account cannot parent another');
});

test('get account when the uid is unknown answers 40034', async () => {
  const response = await operator.call('GET', '/admin/v1/accounts/123');
  assert.equal(response.status, 400);
  assert.deepEqual([response.body?.code, response.body?.msg], ['40034', 'Parameter uid does not exist']);
});

test('create api key when called returns the credentials once and they sign requests', async () => {
  const { uid } = await operator.createAccount();
  const key = await operator.createApiKey(uid, { label: 'bot', passphrase: 'Passphrase123' });
  assert.match(key.apiKey, /^bg_[0-9a-f]{32}$/);
  assert.match(key.secretKey, /^[0-9a-f]{64}$/);
  assert.equal(key.passphrase, 'Passphrase123');
  const info = await new SigningClient(server.url, key).get<{ userId: string }>('/api/v2/spot/account/info');
  assert.equal(info.body?.data.userId, uid);
  const view = await operator.getAccount(uid);
  assert.deepEqual(
    view.apiKeys.map((listed) => listed.apiKey),
    [key.apiKey],
  );
  const text = JSON.stringify(view);
  assert.ok(!text.includes(key.secretKey) && !text.includes(key.passphrase), 'no secret in the account view');
  assert.ok(!/secretCipher|passphraseHash/.test(text));
});

test('create api key when permission names are given stores their codes', async () => {
  const { uid } = await operator.createAccount();
  const key = await operator.createApiKey(uid, { permissions: ['spot_trade', 'READ', 'wtor'] });
  assert.deepEqual(key.permissions, ['chor', 'coor', 'cpor', 'smor', 'stor', 'stow', 'taxr', 'wtor']);
  const info = await new SigningClient(server.url, key).get<{ authorities: string[] }>(
    '/api/v2/spot/account/info',
  );
  assert.deepEqual(info.body?.data.authorities, key.permissions);
});

test('create api key when an input is invalid answers 40020 and makes no key', async () => {
  const { uid } = await operator.createAccount();
  const cases: [unknown, string][] = [
    [{ permissions: ['launch_rockets'] }, 'permissions'],
    // Names that an object's prototype has must not pass for permission names.
    [{ permissions: ['constructor'] }, 'permissions'],
    [{ permissions: ['__proto__'] }, 'permissions'],
    [{ permissions: ['toString', 'read'] }, 'permissions'],
    [{ permissions: ['hasOwnProperty'] }, 'permissions'],
    [{ passphrase: 'short' }, 'passphrase'],
    [{ passphrase: 'has spaces in it' }, 'passphrase'],
    [{ label: 'x'.repeat(21) }, 'label'],
    [{ ipList: Array.from({ length: 31 }, (_, index) => `10.0.0.${index}`) }, 'ipList'],
  ];
  for (const [body, field] of cases) {
    const response = await operator.call('POST', `/admin/v1/accounts/${uid}/api-keys`, body);
    assert.deepEqual([response.body?.code, response.body?.msg], ['40020', `Parameter ${field} error`]);
  }
  assert.deepEqual((await operator.getAccount(uid)).apiKeys, []);
  const missing = await operator.call('POST', '/admin/v1/accounts/42/api-keys', {});
  assert.equal(missing.body?.code, '40034');
});

test('create api key when a permission is a prototype name answers 40020 and makes no key', async () => {
  const { uid } = await operator.createAccount();
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
    const response = await operator.call('POST', `/admin/v1/accounts/${uid}/api-keys`, {
      permissions: ['spot_trade', name],
    });
    assert.deepEqual(
      [response.status, response.body?.code, response.body?.msg],
      [400, '40020', 'Parameter permissions error'],
      name,
    );
  }
  assert.deepEqual((await operator.getAccount(uid)).apiKeys, []);
});

test('deposit when made shows in the account and returns a record id and txId', async () => {
  const { uid } = await operator.createAccount();
  const first = await operator.deposit(uid, { coin: 'USDT', amount: '1000.5' });
  const second = await operator.deposit(uid, { coin: 'BTC', amount: '0.00000001' });
  assert.match(first.id, /^\d{18}$/);
  assert.notEqual(first.id, second.id);
  assert.equal(first.txId.includes(first.id), true);
  assert.deepEqual(
    [first.uid, first.coin, first.amount, first.wallet, first.type, first.status],
    [uid, 'USDT', '1000.5', 'spot', 'deposit', 'success'],
  );
  const view = await operator.getAccount(uid);
  assert.equal(view.wallets.spot?.USDT?.available, '1000.5');
  assert.equal(view.wallets.spot?.BTC?.available, '0.00000001');
});

test('deposit when the wallet is named lands in that wallet', async () => {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '7', wallet: 'usdt_futures' });
  assert.equal((await operator.getAccount(uid)).wallets.usdt_futures?.USDT?.available, '7');
});

test('deposit when the wallet is an isolated-margin wallet keeps the symbol in upper case', async () => {
  const { uid } = await operator.createAccount();
  const receipt = await operator.deposit(uid, {
    coin: 'USDT',
    amount: '2',
    wallet: 'Isolated_Margin:btcusdt',
  });
  assert.equal(receipt.wallet, 'isolated_margin:BTCUSDT');
  assert.equal((await operator.getAccount(uid)).wallets['isolated_margin:BTCUSDT']?.USDT?.available, '2');
});

test('deposit when the account is unified lands in the unified wallet', async () => {
  const { uid } = await operator.createAccount({ mode: 'unified' });
  await operator.deposit(uid, { coin: 'USDT', amount: '3' });
  assert.equal((await operator.getAccount(uid)).wallets.unified?.USDT?.available, '3');
  const spot = await operator.call('POST', `/admin/v1/accounts/${uid}/deposits`, {
    coin: 'USDT',
    amount: '3',
    wallet: 'spot',
  });
  assert.equal(spot.body?.code, '40020');
});

test('deposit when the input is invalid answers the venue code and changes no balance', async () => {
  const { uid } = await operator.createAccount();
  const cases: [unknown, string][] = [
    [{ coin: 'USDT', amount: '0' }, '40020'],
    [{ coin: 'USDT', amount: '-5' }, '40020'],
    [{ coin: 'USDT', amount: '1e3' }, '40020'],
    [{ coin: 'USDT', amount: '0.000000001' }, '40020'],
    [{ coin: 'USDT', amount: 'lots' }, '40020'],
    [{ coin: 'NOPE', amount: '1' }, '40034'],
    [{ coin: 'USDT', amount: '1', wallet: 'piggy_bank' }, '40020'],
    [{ coin: 'USDT', amount: '1', subType: 'teleport' }, '40020'],
    [{ amount: '1' }, '40019'],
    [{ coin: 'USDT' }, '40019'],
  ];
  for (const [body, code] of cases) {
    const response = await operator.call('POST', `/admin/v1/accounts/${uid}/deposits`, body);
    assert.equal(response.body?.code, code, `${JSON.stringify(body)}: ${response.text}`);
  }
  assert.deepEqual((await operator.getAccount(uid)).wallets, {});
  const unknown = await operator.call('POST', '/admin/v1/accounts/77/deposits', {
    coin: 'USDT',
    amount: '1',
  });
  assert.equal(unknown.body?.code, '40034');
});

test('withdraw when covered reduces the balance and when not answers 43012', async () => {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'ETH', amount: '2' });
  const receipt = await operator.withdraw(uid, { coin: 'ETH', amount: '0.75' });
  assert.deepEqual([receipt.type, receipt.amount], ['withdrawal', '0.75']);
  assert.equal((await operator.getAccount(uid)).wallets.spot?.ETH?.available, '1.25');
  const over = await operator.call('POST', `/admin/v1/accounts/${uid}/withdrawals`, {
    coin: 'ETH',
    amount: '1.26',
  });
  assert.equal(over.status, 400);
  assert.deepEqual([over.body?.code, over.body?.msg], ['43012', 'Insufficient balance']);
  assert.equal((await operator.getAccount(uid)).wallets.spot?.ETH?.available, '1.25');
  await operator.withdraw(uid, { coin: 'ETH', amount: '1.25' });
  assert.equal((await operator.getAccount(uid)).wallets.spot?.ETH?.available, '0');
});

test('set price when the instrument exists stores the index price', async () => {
  const price = await operator.setPrice({ category: 'SPOT', symbol: 'ETHUSDT', indexPrice: '3210.5' });
  assert.deepEqual(price, { category: 'SPOT', symbol: 'ETHUSDT', indexPrice: '3210.5' });
  assert.equal(server.services.sequencer.exchange.state.indexPrices.get('SPOT:ETHUSDT'), '3210.5');
  const unknown = await operator.call('PUT', '/admin/v1/prices', {
    category: 'SPOT',
    symbol: 'NOPE',
    indexPrice: '1',
  });
  assert.equal(unknown.body?.code, '40034');
  for (const indexPrice of ['0', '-1', 'abc', '']) {
    const bad = await operator.call('PUT', '/admin/v1/prices', {
      category: 'SPOT',
      symbol: 'ETHUSDT',
      indexPrice,
    });
    assert.ok(['40020', '40019'].includes(bad.body?.code ?? ''), `${indexPrice}: ${bad.text}`);
  }
  assert.equal(server.services.sequencer.exchange.state.indexPrices.get('SPOT:ETHUSDT'), '3210.5');
});

test('list instruments when filtered by category returns only that category', async () => {
  const all = await operator.listInstruments();
  const categories = new Set(all.map((row) => row.category));
  assert.ok(categories.has('SPOT') && categories.has('USDT-FUTURES'));
  const futures = await operator.listInstruments('usdt-futures');
  assert.ok(futures.length > 0 && futures.every((row) => row.category === 'USDT-FUTURES'));
});

const NEW_SPOT = {
  category: 'spot',
  symbol: 'solusdt',
  baseCoin: 'SOL',
  quoteCoin: 'USDT',
  minOrderQty: '0.01',
  maxOrderQty: '100000',
  minOrderAmount: '1',
  pricePrecision: '3',
  quantityPrecision: '2',
  quotePrecision: '6',
  makerFeeRate: '0.001',
  takerFeeRate: '0.001',
};

test('add instrument when new lists it on the venue API', async () => {
  const added = await operator.addInstrument(NEW_SPOT);
  assert.deepEqual([added.symbol, added.category, added.status], ['SOLUSDT', 'SPOT', 'online']);
  const listed = await publicGet<Record<string, string>[]>(
    server.url,
    '/api/v3/market/instruments',
    'category=SPOT&symbol=SOLUSDT',
  );
  assert.equal(listed.body?.data[0]?.pricePrecision, '3');
  const again = await operator.call('POST', '/admin/v1/instruments', NEW_SPOT);
  assert.equal(again.body?.code, '40020');
  const coin = await operator.createAccount();
  await operator.deposit(coin.uid, { coin: 'SOL', amount: '1' });
});

test('add instrument when a field is invalid answers 40020 or 40019 and lists nothing', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ ...NEW_SPOT, symbol: 'AB/CD' }, '40020'],
    [{ ...NEW_SPOT, symbol: 'BADPRECUSDT', pricePrecision: 'x' }, '40020'],
    [{ ...NEW_SPOT, symbol: 'BADPRECUSDT', pricePrecision: '12' }, '40020'],
    [{ ...NEW_SPOT, symbol: 'BADPRECUSDT', status: 'sleeping' }, '40020'],
    [{ ...NEW_SPOT, symbol: 'BADPRECUSDT', category: 'options' }, '40020'],
    [{ ...NEW_SPOT, symbol: 'BADPRECUSDT', minOrderQty: { n: 1 } }, '40020'],
    [{ ...NEW_SPOT, symbol: undefined }, '40019'],
  ];
  for (const [body, code] of cases) {
    const response = await operator.call('POST', '/admin/v1/instruments', body);
    assert.equal(response.body?.code, code, `${JSON.stringify(body)}: ${response.text}`);
  }
  assert.ok(!(await operator.listInstruments('SPOT')).some((row) => row.symbol === 'BADPRECUSDT'));
});

test('patch instrument when changing its status shows the new status', async () => {
  const patched = await operator.patchInstrument({ category: 'SPOT', symbol: 'ETHUSDT', status: 'offline' });
  assert.equal(patched.status, 'offline');
  const listed = await publicGet<Record<string, string>[]>(
    server.url,
    '/api/v3/market/instruments',
    'category=spot&symbol=ETHUSDT',
  );
  assert.equal(listed.body?.data[0]?.status, 'offline');
  const back = await operator.patchInstrument({
    category: 'spot',
    symbol: 'ethusdt',
    status: 'online',
    takerFeeRate: '0.002',
  });
  assert.deepEqual([back.status, back.takerFeeRate], ['online', '0.002']);
});

test('patch instrument when unknown or invalid answers the venue code and changes nothing', async () => {
  const unknown = await operator.call('PATCH', '/admin/v1/instruments', {
    category: 'SPOT',
    symbol: 'NOPEUSDT',
  });
  assert.equal(unknown.body?.code, '40034');
  const before = (await operator.listInstruments('SPOT')).find((row) => row.symbol === 'BTCUSDT');
  const invalid = await operator.call('PATCH', '/admin/v1/instruments', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    pricePrecision: '-1',
  });
  assert.equal(invalid.body?.code, '40020');
  const after = (await operator.listInstruments('SPOT')).find((row) => row.symbol === 'BTCUSDT');
  assert.deepEqual(after, before);
});

test('clock when real reports real time and refuses to advance', async () => {
  const clock = await operator.getClock();
  assert.equal(clock.mode, 'real');
  assert.ok(Math.abs(Number(clock.nowMs) - Date.now()) < 5_000);
  const refused = await operator.call('POST', '/admin/v1/clock/advance', { ms: '1000' });
  assert.equal(refused.status, 400);
  assert.deepEqual([refused.body?.code, refused.body?.msg], ['40020', 'Parameter BOURSE_CLOCK error']);
});

test('clock when simulated stands still, advances by the given ms and stamps writes with it', async (t) => {
  const simulated = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated' } });
  const client = new OperatorClient(simulated.url, TEST_OPERATOR_TOKEN);
  const start = await client.getClock();
  assert.equal(start.mode, 'simulated');
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal((await client.getClock()).nowMs, start.nowMs, 'simulated time stands still');
  const advanced = await client.advanceClock(3_600_000);
  assert.equal(Number(advanced.nowMs), Number(start.nowMs) + 3_600_000);
  assert.equal((await client.getClock()).nowMs, advanced.nowMs);
  const { uid } = await client.createAccount();
  const receipt = await client.deposit(uid, { coin: 'USDT', amount: '1' });
  assert.equal(receipt.ts, advanced.nowMs);
  const time = await publicGet<{ serverTime: string }>(simulated.url, '/api/v2/public/time');
  assert.ok(Math.abs(Number(time.body?.data.serverTime) - Date.now()) < 5_000, 'serverTime is wall time');
  for (const ms of ['-5', 'abc', '1.5', '', '9999999999999']) {
    const bad = await client.call('POST', '/admin/v1/clock/advance', { ms });
    assert.ok(['40020', '40019'].includes(bad.body?.code ?? ''), `${ms}: ${bad.text}`);
  }
  assert.equal((await client.getClock()).nowMs, advanced.nowMs);
});
