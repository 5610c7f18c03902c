/**
 * Virtual sub-accounts and their API keys over real HTTP (spec §7, endpoints.md §8): who may
 * call (main account, key bound to an IP), creating and listing sub-accounts, freezing one,
 * and keys that work at once with exactly their permissions and whitelist.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SigningClient } from '../../support/signing.ts';
import {
  data,
  harness,
  mainAccount,
  refusal,
  type Harness,
  type Rows,
  type Trader,
} from './broker-helpers.ts';

interface Created {
  successList: Record<string, unknown>[];
  failureList: { subaAccountName: string }[];
}

interface SubKey {
  subAccountUid: string;
  label: string;
  subAccountApiKey: string;
  secretKey: string;
  permList: string[];
  ipList: string[];
}

async function createSubs(broker: Trader, aliases: string[]): Promise<Created> {
  return data<Created>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount', { body: { subAccountList: aliases } }),
  );
}

async function subKey(
  h: Harness,
  broker: Trader,
  subUid: string,
  body: Record<string, unknown> = {},
): Promise<{ key: SubKey; client: SigningClient }> {
  const passphrase = 'subPass123';
  const key = data<SubKey>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
      body: { subAccountUid: subUid, passphrase, label: 'bot', ...body },
    }),
  );
  const client = new SigningClient(h.server.url, {
    apiKey: key.subAccountApiKey,
    secretKey: key.secretKey,
    passphrase: typeof body.passphrase === 'string' ? body.passphrase : passphrase,
  });
  return { key, client };
}

test('create virtual sub-account when aliases are new, taken or malformed lists each in its list', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const created = await createSubs(broker, ['alphaone', 'BetaTwoo', 'alphaONE', 'short', 'abc12345']);
  assert.deepEqual(
    created.successList.map((row) => [row.subaAccountName, row.status, row.label, row.permList]),
    [
      ['alphaone@virtual-bourse.com', 'normal', '', ['spot_trade', 'contract_trade']],
      ['betatwoo@virtual-bourse.com', 'normal', '', ['spot_trade', 'contract_trade']],
    ],
  );
  for (const row of created.successList) {
    assert.match(String(row.subaAccountUid), /^\d{10}$/);
    assert.equal(row.cTime, row.uTime);
  }
  assert.deepEqual(created.failureList, [
    { subaAccountName: 'alphaone@virtual-bourse.com' },
    { subaAccountName: 'short@virtual-bourse.com' },
    { subaAccountName: 'abc12345@virtual-bourse.com' },
  ]);
  const other = await mainAccount(h);
  const taken = await createSubs(other, ['BETATWOO']);
  assert.equal(taken.successList.length, 0, 'aliases are unique across the venue');
  const empty = await broker.client.post('/api/v2/user/create-virtual-subaccount', {
    body: { subAccountList: [] },
  });
  assert.deepEqual(refusal(empty), ['40019', 'Parameter subAccountList cannot be empty']);
});

test('v2 user endpoints when the caller is a sub-account or its key has no IP answer 40014 and 40018', async (t) => {
  const h = await harness(t);
  const unbound = await mainAccount(h, { ipList: [] });
  assert.deepEqual(
    refusal(
      await unbound.client.post('/api/v2/user/create-virtual-subaccount', {
        body: { subAccountList: ['gammaaaa'] },
      }),
    ),
    ['40018', 'Invalid IP'],
  );
  assert.deepEqual(refusal(await unbound.client.get('/api/v2/user/virtual-subaccount-list')), [
    '40018',
    'Invalid IP',
  ]);
  const broker = await mainAccount(h);
  const [row] = (await createSubs(broker, ['deltaaaa'])).successList;
  const subUid = String(row?.subaAccountUid);
  const sub = await subKey(h, broker, subUid, { permList: ['spot_trade', 'read'], ipList: ['127.0.0.1'] });
  const asSub = await sub.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
    body: { subAccountUid: subUid, passphrase: 'abcdefgh1', label: 'x' },
  });
  assert.deepEqual(refusal(asSub), ['40014', 'Incorrect permissions, need read and write permissions']);
  const stranger = await mainAccount(h);
  const notMine = await stranger.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
    body: { subAccountUid: subUid, passphrase: 'abcdefgh1', label: 'x' },
  });
  assert.deepEqual(refusal(notMine), ['40034', 'Parameter subAccountUid does not exist']);
});

test('create virtual sub-account API key when fields break the rules answers 40019 and 40020', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const [row] = (await createSubs(broker, ['epsilonn'])).successList;
  const subAccountUid = String(row?.subaAccountUid);
  const send = (body: Record<string, unknown>) =>
    broker.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
      body: { subAccountUid, passphrase: 'goodPass1', label: 'ok', ...body },
    });
  assert.deepEqual(refusal(await send({ passphrase: 'short1' })), ['40020', 'Parameter passphrase error']);
  assert.deepEqual(refusal(await send({ passphrase: 'has space 123' })), [
    '40020',
    'Parameter passphrase error',
  ]);
  assert.deepEqual(refusal(await send({ passphrase: 'a'.repeat(33) })), [
    '40020',
    'Parameter passphrase error',
  ]);
  assert.deepEqual(refusal(await send({ label: 'x'.repeat(21) })), ['40020', 'Parameter label error']);
  assert.deepEqual(refusal(await send({ label: undefined })), ['40019', 'Parameter label cannot be empty']);
  const ips = Array.from({ length: 31 }, (_, index) => `10.0.0.${index}`);
  assert.deepEqual(refusal(await send({ ipList: ips })), ['40020', 'Parameter ipList error']);
  assert.deepEqual(refusal(await send({ ipList: ['not-an-ip'] })), ['40020', 'Parameter ipList error']);
  assert.deepEqual(refusal(await send({ permList: ['withdraw'] })), ['40020', 'Parameter permList error']);
  const ok = data<SubKey>(await send({ ipList: ips.slice(0, 30), label: 'x'.repeat(20) }));
  assert.equal(ok.ipList.length, 30);
  assert.deepEqual(ok.permList, ['read'], 'no permList: a read-only key');
});

test('virtual sub-account key when used works with exactly its permissions and whitelist', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const [row] = (await createSubs(broker, ['zetazeta'])).successList;
  const subUid = String(row?.subaAccountUid);
  await h.operator.deposit(subUid, { coin: 'USDT', amount: '1000' });
  const { key, client } = await subKey(h, broker, subUid, {
    permList: ['spot_trade'],
    ipList: ['127.0.0.1'],
  });
  assert.deepEqual(key.permList, ['spot_trade']);
  assert.match(key.secretKey, /\S{16,}/);
  const placed = await client.post('/api/v2/spot/trade/place-order', {
    body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '59000', size: '0.001' },
  });
  data(placed);
  const assets = data<Rows>(await client.get('/api/v2/spot/account/assets'));
  assert.deepEqual(
    assets.map((asset) => [asset.coin, asset.available, asset.frozen]),
    [['USDT', '941', '59']],
  );
  const transfer = await client.post('/api/v2/spot/wallet/transfer', {
    body: { fromType: 'spot', toType: 'usdt_futures', amount: '1', coin: 'USDT' },
  });
  assert.deepEqual(refusal(transfer), ['40014', 'Incorrect permissions, need read and write permissions']);
  const margin = await client.post('/api/v3/trade/place-order', {
    body: {
      category: 'MARGIN',
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      qty: '0.001',
      price: '59000',
    },
  });
  assert.deepEqual(refusal(margin), ['25620', 'permission denied']);
  const futures = await client.get('/api/v2/mix/order/orders-pending', {
    query: { productType: 'USDT-FUTURES' },
  });
  assert.equal(refusal(futures)[0], '40014');

  const { client: elsewhere } = await subKey(h, broker, subUid, {
    permList: ['spot_trade'],
    ipList: ['10.1.2.3'],
  });
  assert.deepEqual(refusal(await elsewhere.get('/api/v2/spot/account/assets')), ['40018', 'Invalid IP']);
});

test('virtual sub-account list when paged lists newest first with a numeric endId', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const created = await createSubs(broker, ['aaaaaaaa', 'bbbbbbbb', 'cccccccc']);
  const uids = created.successList.map((row) => String(row.subaAccountUid));
  const first = data<{ endId: number; subAccountList: Rows }>(
    await broker.client.get('/api/v2/user/virtual-subaccount-list', { query: { limit: '2' } }),
  );
  assert.deepEqual(
    first.subAccountList.map((row) => row.subAccountUid),
    [uids[2], uids[1]],
  );
  assert.equal(first.endId, Number(uids[1]));
  const second = data<{ endId: number; subAccountList: Rows }>(
    await broker.client.get('/api/v2/user/virtual-subaccount-list', {
      query: { limit: '2', idLessThan: String(first.endId) },
    }),
  );
  assert.deepEqual(
    second.subAccountList.map((row) => row.subAccountUid),
    [uids[0]],
  );
  const text = (await broker.client.get('/api/v2/user/virtual-subaccount-list', { query: { limit: '1' } }))
    .text;
  assert.match(text, /"endId":\d+,/, 'endId is a bare JSON number');
});

test('modify virtual sub-account when frozen stops its keys with 40013 until made normal again', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const [row] = (await createSubs(broker, ['frozenaa'])).successList;
  const subUid = String(row?.subaAccountUid);
  const { client } = await subKey(h, broker, subUid, { permList: ['read'] });
  data(await client.get('/api/v2/spot/account/assets'));
  const modify = (status: string, permList: string[]) =>
    broker.client.post('/api/v2/user/modify-virtual-subaccount', {
      body: { subAccountUid: subUid, permList, status },
    });
  assert.deepEqual(data(await modify('freeze', ['spot_trade'])), { result: 'success' });
  assert.deepEqual(refusal(await client.get('/api/v2/spot/account/assets')), [
    '40013',
    'User status is abnormal',
  ]);
  const frozenList = data<{ subAccountList: Rows }>(
    await broker.client.get('/api/v2/user/virtual-subaccount-list', { query: { status: 'freeze' } }),
  );
  assert.deepEqual(
    frozenList.subAccountList.map((sub) => [sub.subAccountUid, sub.status, sub.permList]),
    [[subUid, 'freeze', ['spot_trade']]],
  );
  data(await modify('normal', ['spot_trade', 'read']));
  data(await client.get('/api/v2/spot/account/assets'));
  assert.deepEqual(refusal(await modify('gone', [])), ['40020', 'Parameter status error']);
});

test('modify virtual sub-account API key when the passphrase matches replaces permissions and whitelist at once', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const [row] = (await createSubs(broker, ['keyedacc'])).successList;
  const subUid = String(row?.subaAccountUid);
  const { key, client } = await subKey(h, broker, subUid, { permList: ['read'], ipList: ['127.0.0.1'] });
  const modify = (body: Record<string, unknown>) =>
    broker.client.post('/api/v2/user/modify-virtual-subaccount-apikey', {
      body: { subAccountUid: subUid, subAccountApiKey: key.subAccountApiKey, ...body },
    });
  assert.deepEqual(refusal(await modify({ passphrase: 'wrongPass9' })), [
    '40012',
    'apikey/password is incorrect',
  ]);
  const transfer = () =>
    client.post('/api/v2/spot/wallet/transfer', {
      body: { fromType: 'spot', toType: 'usdt_futures', amount: '1', coin: 'USDT' },
    });
  assert.equal(refusal(await transfer())[0], '40014');
  const modified = data<SubKey>(
    await modify({ passphrase: 'subPass123', permList: ['transfer', 'read'], label: 'renamed' }),
  );
  assert.deepEqual(modified, {
    subAccountUid: subUid,
    label: 'renamed',
    subAccountApiKey: key.subAccountApiKey,
    secretKey: '',
    permList: ['transfer', 'read'],
    ipList: [],
  });
  // The new permission applies to the very next request: now the balance is what is missing.
  assert.equal(refusal(await transfer())[0], '43012');
  const listed = data<Rows>(
    await broker.client.get('/api/v2/user/virtual-subaccount-apikey-list', {
      query: { subAccountUid: subUid },
    }),
  );
  assert.deepEqual(listed, [
    {
      subAccountUid: subUid,
      label: 'renamed',
      subAccountApiKey: key.subAccountApiKey,
      permList: ['transfer', 'read'],
      ipList: [],
    },
  ]);
  assert.ok(!JSON.stringify(listed).includes(key.secretKey), 'the list never shows the secret');
});
