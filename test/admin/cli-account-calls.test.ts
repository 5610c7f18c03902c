/**
 * bourse-admin's account and key subcommands against a running server: accounts list,
 * orders, fills, positions and balances; keys list, update, freeze, unfreeze and revoke.
 * Each prints the answer's data as JSON on stdout, exits 1 with the envelope on stderr when
 * refused and 2 with the usage when the command line is wrong.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../../src/admin/cli.ts';
import { OperatorClient } from '../support/operator.ts';
import { data } from '../support/scenario.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';

let server: TestServer;
let env: NodeJS.ProcessEnv;
let uid: string;
let key: ApiCredentials;

before(async () => {
  server = await startTestServer();
  env = { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  uid = (await operator.createAccount({ label: 'cli-visible', mode: 'classic' })).uid;
  await operator.deposit(uid, { coin: 'USDT', amount: '1000' });
  key = await operator.createApiKey(uid, { label: 'cli' });
  const placed = await new SigningClient(server.url, key).post('/api/v2/spot/trade/place-order', {
    body: { symbol: 'BTCUSDT', side: 'buy', orderType: 'limit', force: 'gtc', price: '50000', size: '0.001' },
  });
  data(placed);
});

after(() => server.close());

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, env, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr, json: <T>() => JSON.parse(stdout) as T };
}

type Page = { list: Record<string, unknown>[]; cursor: string | null };

test('bourse-admin accounts list when filtered prints the page as JSON', async () => {
  const listed = await cli([
    'accounts',
    'list',
    '--label',
    'cli-visible',
    '--mode',
    'classic',
    '--limit',
    '5',
  ]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(
    listed.json<Page>().list.map((row) => row.uid),
    [uid],
  );
  const paged = await cli(['accounts', 'list', '--limit', '1']);
  const next = await cli(['accounts', 'list', '--limit', '1', '--cursor', String(paged.json<Page>().cursor)]);
  assert.notDeepEqual(next.json<Page>().list, paged.json<Page>().list, 'the cursor moves on');
});

test('bourse-admin accounts orders, fills, positions and balances when called print the account activity', async () => {
  const open = await cli([
    'accounts',
    'orders',
    uid,
    '--status',
    'open',
    '--category',
    'SPOT',
    '--symbol',
    'BTCUSDT',
  ]);
  assert.equal(open.code, 0, open.stderr);
  assert.deepEqual(
    open.json<Page>().list.map((row) => [row.price, row.status]),
    [['50000', 'live']],
  );
  const fills = await cli(['accounts', 'fills', uid, '--limit', '10']);
  assert.deepEqual(fills.json(), { list: [], cursor: null });
  assert.deepEqual((await cli(['accounts', 'positions', uid, '--category', 'USDT-FUTURES'])).json(), []);
  const balances = await cli(['accounts', 'balances', uid, '--wallet', 'spot', '--coin', 'USDT']);
  assert.deepEqual(
    balances.json<Record<string, string>[]>().map((row) => [row.available, row.frozen]),
    [['950', '50']],
  );
  const unknown = await cli(['accounts', 'orders', '42']);
  assert.equal(unknown.code, 1);
  assert.equal(JSON.parse(unknown.stderr).code, '40034');
  assert.equal(unknown.stdout, '', 'nothing on stdout when refused');
});

test('bourse-admin keys list, update, freeze, unfreeze and revoke when called manage the key', async () => {
  const listed = await cli(['keys', 'list', '--uid', uid]);
  assert.deepEqual(
    listed.json<Page>().list.map((row) => [row.apiKey, row.status]),
    [[key.apiKey, 'normal']],
  );
  const updated = await cli(['keys', 'update', key.apiKey, '--permissions', 'read', '--label', 'reader']);
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual(
    [updated.json<Record<string, unknown>>().label, updated.json<Record<string, unknown>>().permissions],
    ['reader', ['chor', 'coor', 'cpor', 'smor', 'stor', 'taxr', 'wtor']],
  );
  assert.equal((await cli(['keys', 'freeze', key.apiKey])).json<Record<string, unknown>>().status, 'frozen');
  const refused = await new SigningClient(server.url, key).get('/api/v2/spot/account/info');
  assert.equal(refused.body?.code, '40013');
  assert.equal((await cli(['keys', 'list', '--status', 'frozen'])).json<Page>().list.length, 1);
  assert.equal(
    (await cli(['keys', 'unfreeze', key.apiKey])).json<Record<string, unknown>>().status,
    'normal',
  );
  const revoked = await cli(['keys', 'revoke', key.apiKey]);
  assert.deepEqual(revoked.json(), { apiKey: key.apiKey, uid, status: 'revoked' });
  const again = await cli(['keys', 'revoke', key.apiKey]);
  assert.deepEqual([again.code, JSON.parse(again.stderr).code], [1, '40034']);
});

test('bourse-admin account and key commands when the command line is wrong exit 2 with the usage', async () => {
  for (const args of [
    ['accounts', 'list', 'extra'],
    ['accounts', 'orders'],
    ['accounts', 'fills', '1', '2'],
    ['keys', 'list', 'extra'],
    ['keys', 'freeze'],
    ['keys', 'revoke', 'a', 'b'],
    ['keys', 'rotate', 'a'],
    ['accounts', 'list', '--limit'],
  ]) {
    const result = await cli(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, /usage: bourse-admin/);
    assert.equal(result.stdout, '');
  }
});
