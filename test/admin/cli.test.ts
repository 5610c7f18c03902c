/**
 * bourse-admin against a running server: every subcommand, credentials.json discovery,
 * rejected requests (exit 1, envelope on stderr) and usage errors (exit 2).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../../src/admin/cli.ts';
import { REPO_ROOT } from '../support/child.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let env: NodeJS.ProcessEnv;

before(async () => {
  server = await startTestServer({ env: { BOURSE_CLOCK: 'simulated' } });
  env = { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
});

after(() => server.close());

async function cli(args: string[], environment: NodeJS.ProcessEnv = env) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, environment, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> };
}

test('bourse-admin accounts create and get when called print the account as JSON', async () => {
  const created = await cli(['accounts', 'create', '--mode', 'unified', '--label', 'cli']);
  assert.equal(created.code, 0, created.stderr);
  const uid = String(created.json().uid);
  const got = await cli(['accounts', 'get', uid]);
  assert.equal(got.code, 0);
  assert.deepEqual([got.json().mode, got.json().label], ['unified', 'cli']);
  const sub = await cli(['accounts', 'create', '--kind', 'sub', '--parent', server.credentials.uid]);
  assert.equal(sub.code, 0, sub.stderr);
});

test('bourse-admin keys create when called prints the credentials once', async () => {
  const { uid } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const key = await cli([
    'keys',
    'create',
    uid,
    '--permissions',
    'spot_trade,wtor',
    '--ip',
    '127.0.0.1, 10.0.0.1',
    '--label',
    'bot',
  ]);
  assert.equal(key.code, 0, key.stderr);
  const issued = key.json() as { apiKey: string; secretKey: string; permissions: string[]; ipList: string[] };
  assert.match(issued.apiKey, /^bg_/);
  assert.match(issued.secretKey, /^[0-9a-f]{64}$/);
  assert.deepEqual(issued.permissions, ['stor', 'stow', 'wtor']);
  assert.deepEqual(issued.ipList, ['127.0.0.1', '10.0.0.1']);
});

test('bourse-admin deposit and withdraw when called move the balance', async () => {
  const { uid } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const deposit = await cli(['deposit', uid, 'USDT', '250.5', '--sub-type', 'internal']);
  assert.equal(deposit.code, 0, deposit.stderr);
  assert.equal(deposit.json().amount, '250.5');
  const futures = await cli(['deposit', uid, 'USDT', '10', '--wallet', 'usdt_futures']);
  assert.equal(futures.json().wallet, 'usdt_futures');
  const withdraw = await cli(['withdraw', uid, 'USDT', '50']);
  assert.equal(withdraw.code, 0, withdraw.stderr);
  const view = (await cli(['accounts', 'get', uid])).json() as {
    wallets: Record<string, Record<string, { available: string }>>;
  };
  assert.equal(view.wallets.spot?.USDT?.available, '200.5');
  assert.equal(view.wallets.usdt_futures?.USDT?.available, '10');
});

test('bourse-admin withdraw when the balance is short exits 1 with the envelope on stderr', async () => {
  const { uid } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const result = await cli(['withdraw', uid, 'USDT', '1']);
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.equal((JSON.parse(result.stderr) as { code: string }).code, '43012');
});

test('bourse-admin price set when called sets the index price', async () => {
  const result = await cli(['price', 'set', 'spot', 'btcusdt', '61000.25']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(result.json(), { category: 'SPOT', symbol: 'BTCUSDT', indexPrice: '61000.25' });
});

test('bourse-admin instruments list, add and patch when called manage the catalogue', async () => {
  const listed = await cli(['instruments', 'list', '--category', 'SPOT']);
  assert.equal(listed.code, 0);
  assert.ok((JSON.parse(listed.stdout) as { symbol: string }[]).some((row) => row.symbol === 'BTCUSDT'));
  const added = await cli([
    'instruments',
    'add',
    'category=SPOT',
    'symbol=DOGEUSDT',
    'baseCoin=DOGE',
    'quoteCoin=USDT',
    'pricePrecision=5',
    'quantityPrecision=0',
  ]);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.json().symbol, 'DOGEUSDT');
  const json = JSON.stringify({
    category: 'USDT-FUTURES',
    symbol: 'DOGEUSDT',
    baseCoin: 'DOGE',
    quoteCoin: 'USDT',
    supportMarginCoins: ['USDT'],
    symbolType: 'perpetual',
  });
  const futures = await cli(['instruments', 'add', '--json', json]);
  assert.equal(futures.code, 0, futures.stderr);
  assert.equal(futures.json().supportMarginCoins, 'USDT');
  const patched = await cli([
    'instruments',
    'patch',
    'SPOT',
    'DOGEUSDT',
    'status=offline',
    'makerFeeRate=0.0008',
  ]);
  assert.equal(patched.code, 0, patched.stderr);
  assert.deepEqual([patched.json().status, patched.json().makerFeeRate], ['offline', '0.0008']);
});

test('bourse-admin clock get and advance when the clock is simulated move it forward', async () => {
  const before = (await cli(['clock', 'get'])).json() as { mode: string; nowMs: string };
  assert.equal(before.mode, 'simulated');
  const advanced = await cli(['clock', 'advance', '60000']);
  assert.equal(advanced.code, 0, advanced.stderr);
  assert.equal(Number((advanced.json() as { nowMs: string }).nowMs), Number(before.nowMs) + 60_000);
});

test('bourse-admin when no URL is given reads credentials.json from the data directory', async () => {
  const result = await cli(['clock', 'get', '--data-dir', server.dataDir], {});
  assert.equal(result.code, 0, result.stderr);
  const fromEnv = await cli(['clock', 'get'], { BOURSE_DATA_DIR: server.dataDir });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
});

test('bourse-admin when the token is wrong exits 1 with 40001', async () => {
  const result = await cli(['clock', 'get', '--token', 'wrong']);
  assert.equal(result.code, 1);
  assert.equal((JSON.parse(result.stderr) as { code: string }).code, '40001');
});

test('bourse-admin when the command line is wrong exits 2 with the usage', async () => {
  for (const args of [
    ['bogus'],
    ['accounts'],
    ['accounts', 'get'],
    ['deposit', '1', 'USDT'],
    ['price', 'set', 'SPOT'],
    ['instruments', 'add', 'novalue'],
    ['instruments', 'add', '--json', '[1]'],
    ['instruments', 'add', '--json', '{'],
    ['clock', 'advance'],
    ['clock', 'get', '--unknown-flag'],
  ]) {
    const result = await cli(args);
    assert.equal(result.code, 2, args.join(' '));
    assert.match(result.stderr, /usage: bourse-admin/);
  }
  assert.equal((await cli(['--help'])).code, 0);
  const nowhere = await cli(['clock', 'get', '--data-dir', '/nonexistent/bourse'], {});
  assert.equal(nowhere.code, 2);
  assert.match(nowhere.stderr, /BOURSE_URL/);
});

test('bourse-admin when the server is down exits 1 saying so', async () => {
  const result = await cli(['clock', 'get', '--url', 'http://127.0.0.1:9', '--token', 'x']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /cannot reach/);
});

test('bin/bourse-admin.mjs when run as a program talks to the server', { timeout: 20_000 }, async () => {
  const run = promisify(execFile);
  const { stdout } = await run(process.execPath, ['bin/bourse-admin.mjs', 'clock', 'get'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  assert.equal((JSON.parse(stdout) as { mode: string }).mode, 'simulated');
  await assert.rejects(
    run(process.execPath, ['bin/bourse-admin.mjs', 'accounts', 'get', '42'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
    }),
    (error: { code: number; stderr: string }) => error.code === 1 && error.stderr.includes('40034'),
  );
});

test('bourse-admin deposit with --status pending and settle when called credit on settlement', async () => {
  const { uid } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const pending = await cli(['deposit', uid, 'USDT', '40', '--status', 'pending']);
  assert.equal(pending.code, 0, pending.stderr);
  const record = pending.json() as { id: string; status: string };
  assert.equal(record.status, 'pending');
  const balance = async () =>
    (
      (await cli(['accounts', 'get', uid])).json() as {
        wallets: Record<string, Record<string, { available: string }>>;
      }
    ).wallets.spot?.USDT?.available;
  assert.equal(await balance(), undefined);
  const settled = await cli(['settle', record.id, 'success']);
  assert.equal(settled.code, 0, settled.stderr);
  assert.deepEqual(settled.json(), { recordId: record.id, status: 'success' });
  assert.equal(await balance(), '40');
  const again = await cli(['settle', record.id, 'fail']);
  assert.equal(again.code, 1);
});

test('bourse-admin funding-rate set when called fixes and releases the rate', async () => {
  const fixed = await cli(['funding-rate', 'set', 'usdt-futures', 'btcusdt', '0.0001']);
  assert.equal(fixed.code, 0, fixed.stderr);
  assert.deepEqual(fixed.json(), { category: 'USDT-FUTURES', symbol: 'BTCUSDT', rate: '0.0001' });
  const released = await cli(['funding-rate', 'set', 'USDT-FUTURES', 'BTCUSDT', 'null']);
  assert.equal(released.json().rate, null);
});

test('bourse-admin agents and kyc when called register an agent, a customer and a KYC result', async () => {
  const { uid: agent } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const { uid: customer } = (await cli(['accounts', 'create'])).json() as { uid: string };
  const registered = await cli([
    'agents',
    'register',
    agent,
    '--rebate-rate',
    '0.3',
    '--futures-rate',
    '0.2',
  ]);
  assert.equal(registered.code, 0, registered.stderr);
  assert.deepEqual([registered.json().rebateRate, registered.json().futuresRebateRate], ['0.3', '0.2']);
  const referred = await cli(['agents', 'add-customer', agent, customer]);
  assert.equal(referred.code, 0, referred.stderr);
  assert.deepEqual((await cli(['agents', 'get', agent])).json().customers, [customer]);
  const kyc = await cli(['kyc', 'set', customer, 'passed']);
  assert.equal(kyc.code, 0, kyc.stderr);
  assert.equal(kyc.json().kycResult, 'passed');
  for (const args of [
    ['agents', 'register'],
    ['kyc', 'get', customer],
    ['settle', '1'],
    ['funding-rate', 'get'],
  ]) {
    assert.equal((await cli(args)).code, 2, args.join(' '));
  }
});
