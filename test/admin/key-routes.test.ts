/**
 * The operator's API-key routes (docs/operator.md, "API keys"): list, freeze and unfreeze,
 * edit, revoke, each through real HTTP, with the key then used (or refused) on the venue API
 * and on a WebSocket session.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import WebSocket from 'ws';
import { LOGIN_PREHASH_SUFFIX } from '../../src/api/ws/login.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { hmacBase64, SigningClient, type ApiCredentials } from '../support/signing.ts';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(() => server.close());

interface KeyRow {
  apiKey: string;
  uid: string;
  label: string;
  permissions: string[];
  ipList: string[];
  status: string;
  createdTime: string;
}

async function data<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await operator.call<T>(method, path, body);
  assert.equal(response.body?.code, '00000', `${method} ${path}: ${response.text}`);
  return response.body.data;
}

const info = (key: ApiCredentials) => new SigningClient(server.url, key).get('/api/v2/spot/account/info');

/** A logged-in WebSocket session of `key`; resolves with the close code once it closes. */
async function session(key: ApiCredentials): Promise<{ closed: Promise<number> }> {
  const socket = new WebSocket(`${server.url.replace('http', 'ws')}/v2/ws/private`);
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const timestamp = String(Math.floor(Date.now() / 1000));
  const sign = hmacBase64(key.secretKey, `${timestamp}${LOGIN_PREHASH_SUFFIX}`);
  const args = [{ apiKey: key.apiKey, passphrase: key.passphrase, timestamp, sign }];
  const answer = new Promise<string>((resolve) => socket.once('message', (raw) => resolve(String(raw))));
  socket.send(JSON.stringify({ op: 'login', args }));
  assert.match(await answer, /"event":"login","code":0/);
  return { closed };
}

test('list api keys when filtered by owner and paged returns each key once, in key order, without secrets', async () => {
  const { uid, key: first } = await accountWithKey(operator);
  const second = await operator.createApiKey(uid, { label: 'two' });
  const third = await operator.createApiKey(uid, { label: 'three' });
  const expected = [first, second, third].map((key) => key.apiKey).sort();
  const page1 = await data<{ list: KeyRow[]; cursor: string }>(
    'GET',
    `/admin/v1/api-keys?uid=${uid}&limit=2`,
  );
  assert.deepEqual(
    page1.list.map((row) => row.apiKey),
    expected.slice(0, 2),
  );
  assert.equal(page1.cursor, expected[1]);
  const page2 = await data<{ list: KeyRow[]; cursor: null }>(
    'GET',
    `/admin/v1/api-keys?uid=${uid}&limit=2&cursor=${page1.cursor}`,
  );
  assert.deepEqual(
    page2.list.map((row) => row.apiKey),
    expected.slice(2),
  );
  assert.equal(page2.cursor, null);
  const row = page1.list[0] as KeyRow;
  assert.deepEqual([row.uid, row.status], [uid, 'normal']);
  assert.match(row.createdTime, /^\d{13}$/);
  const text = JSON.stringify([page1, page2]);
  for (const key of [first, second, third])
    assert.ok(!text.includes(key.secretKey) && !text.includes(key.passphrase));
  const all = await data<{ list: KeyRow[] }>('GET', '/admin/v1/api-keys?limit=500');
  assert.ok(
    all.list.some((listed) => listed.apiKey === server.credentials.apiKey),
    'other owners too',
  );
});

test('patch api key when frozen refuses its requests and WebSocket logins with 40013 until unfrozen', async () => {
  const { key } = await accountWithKey(operator);
  const open = await session(key);
  const frozen = await data<KeyRow>('PATCH', `/admin/v1/api-keys/${key.apiKey}`, { status: 'FROZEN' });
  assert.equal(frozen.status, 'frozen');
  assert.equal(await open.closed, 4005, 'the session logged in with the key is closed');
  const refused = await info(key);
  assert.deepEqual([refused.status, refused.body?.code], [400, '40013']);
  const listed = await data<{ list: KeyRow[] }>('GET', `/admin/v1/api-keys?status=frozen`);
  assert.ok(listed.list.some((row) => row.apiKey === key.apiKey));
  await assert.rejects(session(key), 'a frozen key cannot log in');
  await data('PATCH', `/admin/v1/api-keys/${key.apiKey}`, { status: 'normal' });
  assert.equal((await info(key)).body?.code, '00000');
});

test('patch api key when permissions, IP whitelist and label are given changes them', async () => {
  const { key } = await accountWithKey(operator);
  const changed = await data<KeyRow>('PATCH', `/admin/v1/api-keys/${key.apiKey}`, {
    permissions: ['spot_trade'],
    ipList: ['10.9.9.9'],
    label: 'renamed',
  });
  assert.deepEqual(
    [changed.permissions, changed.ipList, changed.label, changed.status],
    [['stor', 'stow'], ['10.9.9.9'], 'renamed', 'normal'],
  );
  assert.equal((await info(key)).body?.code, '40018', 'the new whitelist applies at once');
});

test('patch api key when the input is bad answers the venue code and changes nothing', async () => {
  const { uid, key } = await accountWithKey(operator);
  const path = `/admin/v1/api-keys/${key.apiKey}`;
  const cases: [unknown, string, string][] = [
    [{}, '40019', 'Parameter status, permissions, ipList or label cannot be empty'],
    [{ status: 'gone' }, '40020', 'Parameter status error'],
    [{ permissions: ['constructor'] }, '40020', 'Parameter permissions error'],
    [{ permissions: ['__proto__', 'read'] }, '40020', 'Parameter permissions error'],
    [{ permissions: 'read' }, '40020', 'Parameter permissions error'],
    [{ ipList: [1] }, '40020', 'Parameter ipList error'],
    [{ label: 'x'.repeat(21) }, '40020', 'Parameter label error'],
    ['[1]', '40017', 'Parameter verification failed body'],
  ];
  const before = await data('GET', `/admin/v1/api-keys?uid=${uid}`);
  for (const [body, code, msg] of cases) {
    const response = await operator.call('PATCH', path, body);
    assert.deepEqual(
      [response.status, response.body?.code, response.body?.msg],
      [400, code, msg],
      JSON.stringify(body),
    );
  }
  assert.deepEqual(await data('GET', `/admin/v1/api-keys?uid=${uid}`), before);
  const unknown = await operator.call('PATCH', '/admin/v1/api-keys/bg_unknown0000', { status: 'frozen' });
  assert.deepEqual([unknown.body?.code, unknown.body?.msg], ['40034', 'Parameter apiKey does not exist']);
});

test('revoke api key when called deletes it: its requests get 40006 and its session closes', async () => {
  const { uid, key } = await accountWithKey(operator);
  const open = await session(key);
  const revoked = await data<{ apiKey: string; status: string }>(
    'DELETE',
    `/admin/v1/api-keys/${key.apiKey}`,
  );
  assert.deepEqual(revoked, { apiKey: key.apiKey, uid, status: 'revoked' });
  assert.equal(await open.closed, 4005);
  assert.equal((await info(key)).body?.code, '40006');
  assert.deepEqual((await operator.getAccount(uid)).apiKeys, []);
  const again = await operator.call('DELETE', `/admin/v1/api-keys/${key.apiKey}`);
  assert.equal(again.body?.code, '40034');
});

test('list api keys when a query parameter is bad answers 40020', async () => {
  for (const query of ['status=lost', 'limit=0', 'limit=abc', 'cursor=%00bad', 'cursor=a%20b']) {
    const response = await operator.call('GET', `/admin/v1/api-keys?${query}`);
    assert.deepEqual([response.status, response.body?.code], [400, '40020'], query);
  }
});
