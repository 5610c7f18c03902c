/**
 * Account information: v2 spot account/info (the spec's account-information table) and v3
 * account/settings (unified accounts; 40084 for classic ones), and the account-mode gate.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { serverFor, startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

const INFO = '/api/v2/spot/account/info';
const SETTINGS = '/api/v3/account/settings';
const CLASSIC_ON_V3 =
  'You are in Classic Account mode, and the Unified Account API is not supported at this time';

interface AccountInfo {
  userId: string;
  inviterId: string;
  channelCode: string;
  channel: string;
  ips: string;
  authorities: string[];
  parentId: number;
  traderType: string;
  regisTime: string;
}

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

test('GET account info when called by the demo key answers every field of the spec table', async () => {
  const client = new SigningClient(server.url, server.credentials);
  const response = await client.get<AccountInfo>(INFO);
  assert.equal(response.body?.code, '00000', response.text);
  const data = response.body?.data as AccountInfo;
  assert.deepEqual(Object.keys(data).sort(), [
    'authorities',
    'channel',
    'channelCode',
    'inviterId',
    'ips',
    'parentId',
    'regisTime',
    'traderType',
    'userId',
  ]);
  assert.equal(data.userId, server.credentials.uid);
  for (const field of [
    'userId',
    'inviterId',
    'channelCode',
    'channel',
    'ips',
    'traderType',
    'regisTime',
  ] as const) {
    assert.equal(typeof data[field], 'string', field);
  }
  assert.ok(Number.isInteger(data.parentId), 'parentId is an integer');
  assert.equal(data.parentId, Number(server.credentials.uid));
  assert.ok(['trader', 'not_trader'].includes(data.traderType));
  assert.match(data.regisTime, /^\d{13}$/);
  assert.ok(Array.isArray(data.authorities) && data.authorities.length > 0);
  assert.ok(data.authorities.every((code) => typeof code === 'string'));
  assert.equal(data.ips, '');
});

test('GET account info when the key has an IP whitelist lists it comma-separated', async () => {
  const { key } = await accountWithKey(operator, { ipList: ['127.0.0.1', '10.0.0.7'] });
  const response = await new SigningClient(server.url, key).get<AccountInfo>(INFO);
  assert.equal(response.body?.data.ips, '127.0.0.1,10.0.0.7');
});

test('GET account info when called by a sub-account gives the main account as parentId', async () => {
  const { uid: parent } = await operator.createAccount();
  const { uid } = await operator.createAccount({ kind: 'sub', parentUid: parent });
  const key = await operator.createApiKey(uid);
  const response = await new SigningClient(server.url, key).get<AccountInfo>(INFO);
  assert.equal(response.body?.data.userId, uid);
  assert.equal(response.body?.data.parentId, Number(parent));
});

test('GET account settings when the account is classic answers 40084', async () => {
  const response = await new SigningClient(server.url, server.credentials).get(SETTINGS);
  assert.equal(response.status, 400);
  assert.deepEqual([response.body?.code, response.body?.msg], ['40084', CLASSIC_ON_V3]);
});

test('GET account settings when the account is unified answers its settings', async () => {
  const { uid, key } = await accountWithKey(operator, { mode: 'unified' });
  const response = await new SigningClient(server.url, key).get<Record<string, unknown>>(SETTINGS);
  assert.equal(response.body?.code, '00000', response.text);
  const data = response.body?.data ?? {};
  assert.equal(data.uid, uid);
  assert.equal(data.accountMode, 'unified');
  for (const field of ['assetMode', 'accountLevel', 'holdMode', 'stpMode']) {
    assert.equal(typeof data[field], 'string', field);
  }
  assert.ok(Array.isArray(data.symbolConfigList) && Array.isArray(data.coinConfigList));
});

test('GET account info when the account is unified and the mode gate is off answers success', async () => {
  const { key } = await accountWithKey(operator, { mode: 'unified' });
  const response = await new SigningClient(server.url, key).get(INFO);
  assert.equal(response.body?.code, '00000', response.text);
});

test('GET account info when the account is unified and the mode gate is on answers 40085 before the signature', async (t) => {
  const gated = await serverFor(t, { env: { BOURSE_ENFORCE_ACCOUNT_MODE: 'true' } });
  const gatedOperator = new OperatorClient(gated.url, TEST_OPERATOR_TOKEN);
  const { key } = await accountWithKey(gatedOperator, { mode: 'unified' });
  const client = new SigningClient(gated.url, key);
  const expected = [
    '40085',
    'You are in Unified Account mode, and the Classic Account API is not supported at this time',
  ];
  const response = await client.get(INFO);
  assert.deepEqual([response.body?.code, response.body?.msg], expected);
  const badSignature = await client.get(INFO, { secret: 'wrong' });
  assert.deepEqual([badSignature.body?.code, badSignature.body?.msg], expected);
  assert.equal((await client.get(SETTINGS)).body?.code, '00000');
  const classic = new SigningClient(gated.url, gated.credentials);
  assert.equal((await classic.get(SETTINGS)).body?.code, '40084');
  assert.equal((await classic.get(INFO)).body?.code, '00000');
});
