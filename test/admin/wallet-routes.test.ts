/**
 * The operator's deposit-address routes and their CLI commands: who an address belongs to,
 * crediting it (settled or pending, then settled or rejected), and the refusals.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../../src/admin/cli.ts';
import { depositAddress } from '../../src/domain/funding.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, env, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stderr, json: () => JSON.parse(stdout) as Record<string, string> };
}

test('deposit address routes when the operator credits an address settle or reject it by record', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_SEED_DEMO: 'false' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const env = { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
  const { uid } = await operator.createAccount({ mode: 'unified' });
  const address = depositAddress(uid, 'ETH', 'ERC20');

  const owner = await cli(['address', 'get', address], env);
  assert.equal(owner.code, 0, owner.stderr);
  assert.deepEqual(owner.json(), { address, uid, coin: 'ETH', chain: 'ERC20', wallet: 'unified' });
  const credited = await cli(
    ['address', 'deposit', address, '2', '--from-address', '0xabc', '--tx-id', '0x01'],
    env,
  );
  assert.equal(credited.code, 0, credited.stderr);
  assert.deepEqual(
    [credited.json().status, credited.json().txId, credited.json().wallet, credited.json().amount],
    ['success', '0x01', 'unified', '2'],
  );
  const pending = await cli(['address', 'deposit', address, '3', '--status', 'pending'], env);
  const rejected = await cli(['settle', pending.json().id ?? '', 'reject'], env);
  assert.equal(rejected.code, 0, rejected.stderr);
  assert.deepEqual(rejected.json(), { recordId: pending.json().id, status: 'fail' });
  const account = await operator.getAccount(uid);
  // 2 credited, the rejected 3 never were.
  assert.equal(account.wallets.unified?.ETH?.available, '2');

  const foreign = await operator.call(
    'POST',
    `/admin/v1/deposit-addresses/${depositAddress('999', 'ETH', 'ERC20')}/deposits`,
    {
      amount: '1',
    },
  );
  assert.deepEqual([foreign.status, foreign.body?.code], [400, '40034']);
  const zero = await operator.call('POST', `/admin/v1/deposit-addresses/${address}/deposits`, {
    amount: '0',
  });
  assert.deepEqual([zero.body?.code, zero.body?.msg], ['40020', 'Parameter amount error']);
  const unlisted = await operator.call(
    'POST',
    `/admin/v1/deposit-addresses/${depositAddress(uid, 'DOGE', 'DOGE')}/deposits`,
    {
      amount: '1',
    },
  );
  assert.equal(unlisted.body?.code, '40034');
  const usage = await cli(['address', 'deposit', address], env);
  assert.equal(usage.code, 2);
});
