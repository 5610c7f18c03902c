/**
 * A logged-in WebSocket session follows its key and account as they change, whatever changed
 * them: a key that loses a permission loses the private subscriptions that needed it (30002),
 * and a key revoked or moved to other IPs, or an account frozen, ends the session (an error,
 * then close code 4005). No push reaches a channel after it was dropped: a "ping" sent after
 * the change is answered after everything the change caused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Account, ApiKeyRecord } from '../../../src/domain/account.ts';
import type { EngineState } from '../../../src/engine/state.ts';
import { CLOSE_SESSION_ENDED } from '../../../src/api/ws/connection.ts';
import { keySnapshot, reviewKey } from '../../../src/api/ws/sessions.ts';
import { data, harness, mainAccount, type Harness, type Trader } from '../routes/broker-helpers.ts';
import { WsTestClient, type Frame } from './ws-client.ts';

const SUB_PASSPHRASE = 'subPass123';

interface SubKey {
  subAccountUid: string;
  subAccountApiKey: string;
  secretKey: string;
}

async function subAccountKey(h: Harness, broker: Trader, permList: string[]) {
  const created = data<{ successList: { subaAccountUid: string }[] }>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount', {
      body: { subAccountList: ['sessionz'] },
    }),
  );
  const uid = created.successList[0]?.subaAccountUid ?? '';
  const key = data<SubKey>(
    await broker.client.post('/api/v2/user/create-virtual-subaccount-apikey', {
      body: { subAccountUid: uid, passphrase: SUB_PASSPHRASE, label: 'session', permList },
    }),
  );
  await h.operator.deposit(uid, { coin: 'USDT', amount: '100', wallet: 'spot' });
  await h.operator.deposit(uid, { coin: 'USDT', amount: '100', wallet: 'usdt_futures' });
  return { uid, key: { apiKey: key.subAccountApiKey, secretKey: key.secretKey, passphrase: SUB_PASSPHRASE } };
}

/** Frames received after `from` and before the next "pong" (a "ping" is sent now). */
async function framesUntilPong(client: WsTestClient, from: number): Promise<Frame[]> {
  const mark = client.frames.length;
  client.send('ping');
  const deadline = Date.now() + 5000;
  while (!client.frames.slice(mark).includes('pong')) {
    if (client.closeCode !== null || Date.now() > deadline) throw new Error('no pong');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const frames = client.frames.slice(from);
  return frames.slice(0, frames.indexOf('pong')).filter((frame): frame is Frame => typeof frame !== 'string');
}

const SPOT_ACCOUNT = { instType: 'SPOT', channel: 'account', coin: 'default' };
const FUTURES_ACCOUNT = { instType: 'USDT-FUTURES', channel: 'account', coin: 'default' };

async function loggedIn(
  h: Harness,
  key: { apiKey: string; secretKey: string; passphrase: string },
  t: Parameters<typeof harness>[0],
) {
  const client = await WsTestClient.open(h.server.url, '/v2/ws/private', t);
  assert.equal((await client.login(key)).code, 0);
  const answers = await client.subscribe([SPOT_ACCOUNT, FUTURES_ACCOUNT]);
  assert.deepEqual(
    answers.map((answer) => answer.event),
    ['subscribe', 'subscribe'],
  );
  return client;
}

test('a private session when its key loses a permission drops the channels that needed it, and only those', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const { uid, key } = await subAccountKey(h, broker, ['spot_trade', 'contract_trade']);
  const client = await loggedIn(h, key, t);
  const from = client.frames.length;
  data(
    await broker.client.post('/api/v2/user/modify-virtual-subaccount-apikey', {
      body: {
        subAccountUid: uid,
        subAccountApiKey: key.apiKey,
        passphrase: SUB_PASSPHRASE,
        permList: ['contract_trade'],
      },
    }),
  );
  await h.operator.deposit(uid, { coin: 'USDT', amount: '5', wallet: 'spot' });
  await h.operator.deposit(uid, { coin: 'USDT', amount: '5', wallet: 'usdt_futures' });
  const frames = await framesUntilPong(client, from);
  const dropped = frames.filter((frame) => frame.event === 'error');
  assert.deepEqual(
    dropped.map((frame) => [frame.code, frame.arg]),
    [[30002, SPOT_ACCOUNT]],
  );
  assert.equal(
    frames.filter((frame) => frame.action !== undefined && frame.arg?.instType === 'SPOT').length,
    0,
    'nothing is pushed on the dropped channel',
  );
  assert.ok(
    frames.some((frame) => frame.action !== undefined && frame.arg?.instType === 'USDT-FUTURES'),
    'the channel the key still reads keeps its pushes',
  );
  assert.equal(client.closeCode, null);
});

test('a private session when its sub-account is frozen is ended with 30005 and close 4005', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const { uid, key } = await subAccountKey(h, broker, ['spot_trade', 'contract_trade']);
  const client = await loggedIn(h, key, t);
  const from = client.json.length;
  data(
    await broker.client.post('/api/v2/user/modify-virtual-subaccount', {
      body: { subAccountUid: uid, permList: ['spot_trade'], status: 'freeze' },
    }),
  );
  await h.operator.deposit(uid, { coin: 'USDT', amount: '5', wallet: 'spot' });
  assert.equal(await client.waitClosed(), CLOSE_SESSION_ENDED);
  const frames = client.json.slice(from);
  assert.deepEqual(
    frames.filter((frame) => frame.event === 'error').map((frame) => [frame.code, frame.msg]),
    [[30005, 'session ended: account frozen']],
  );
  assert.equal(frames.filter((frame) => frame.action !== undefined).length, 0, 'no push after the freeze');
});

test('a private session when its key is bound to other IPs is ended', async (t) => {
  const h = await harness(t);
  const broker = await mainAccount(h);
  const { uid, key } = await subAccountKey(h, broker, ['spot_trade', 'contract_trade']);
  const client = await loggedIn(h, key, t);
  data(
    await broker.client.post('/api/v2/user/modify-virtual-subaccount-apikey', {
      body: {
        subAccountUid: uid,
        subAccountApiKey: key.apiKey,
        passphrase: SUB_PASSPHRASE,
        ipList: ['10.9.9.9'],
      },
    }),
  );
  assert.equal(await client.waitClosed(), CLOSE_SESSION_ENDED);
  assert.match(
    String(client.json.find((frame) => frame.event === 'error')?.msg),
    /not in the key's whitelist/,
  );
});

const baseKey: ApiKeyRecord = {
  apiKey: 'bg_k',
  uid: '7',
  secretCipher: 'sealed',
  passphraseHash: 'salt:hash',
  permissions: ['stor', 'coor'],
  ipList: [],
  label: '',
  createdTimeMs: 0,
};
const baseAccount: Account = {
  uid: '7',
  kind: 'virtual',
  parentUid: '1',
  mode: 'classic',
  label: '',
  createdTimeMs: 0,
};

function stateWith(key: ApiKeyRecord | null, account: Account | null): EngineState {
  return {
    apiKeys: new Map(key ? [[key.apiKey, key]] : []),
    accounts: new Map(account ? [[account.uid, account]] : []),
  } as unknown as EngineState;
}

test('reviewKey when the key or its account changed says keep, narrow or end, whatever path changed them', () => {
  const before = keySnapshot(baseKey);
  assert.deepEqual(reviewKey(stateWith(baseKey, baseAccount), before), { kind: 'keep' });
  const narrowed = reviewKey(stateWith({ ...baseKey, permissions: ['coor'] }, baseAccount), before);
  assert.equal(narrowed.kind, 'changed');
  const revoked = reviewKey(stateWith(null, baseAccount), before);
  assert.deepEqual(revoked, { kind: 'end', failure: { code: 30011, msg: 'session ended: API key revoked' } });
  const otherOwner = reviewKey(stateWith({ ...baseKey, uid: '8' }, baseAccount), before);
  assert.equal(otherOwner.kind, 'end');
  const frozen = reviewKey(stateWith(baseKey, { ...baseAccount, status: 'freeze' }), before);
  assert.deepEqual(frozen, { kind: 'end', failure: { code: 30005, msg: 'session ended: account frozen' } });
  const newPassphrase = reviewKey(
    stateWith({ ...baseKey, passphraseHash: 'salt:other' }, baseAccount),
    before,
  );
  assert.deepEqual(newPassphrase, {
    kind: 'end',
    failure: { code: 30005, msg: 'session ended: API key changed' },
  });
});
