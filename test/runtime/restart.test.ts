/**
 * First start and second start on one data directory: the first makes the instruments, the
 * demo account, its key and the operator token and writes them to credentials.json (0600);
 * the second reuses all of it and everything stored.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { stateHash } from '../../src/engine/state-hash.ts';
import { OperatorClient } from '../support/operator.ts';
import { makeTempDir, removeDir, startTestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

const INFO = '/api/v2/spot/account/info';

function mode(file: string): number {
  return statSync(file).mode & 0o777;
}

test('first start when the data directory is empty writes credentials.json with mode 0600', async (t) => {
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const server = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  try {
    const file = join(dataDir, 'credentials.json');
    assert.equal(mode(file), 0o600);
    assert.equal(mode(join(dataDir, 'server.key')), 0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    assert.deepEqual(Object.keys(stored).sort(), [
      'apiKey',
      'baseUrl',
      'operatorToken',
      'passphrase',
      'secretKey',
      'uid',
    ]);
    assert.deepEqual(stored, { ...server.credentials });
    assert.equal(stored.baseUrl, server.url);
    const operator = new OperatorClient(server.url, stored.operatorToken ?? '');
    const demo = await operator.getAccount(stored.uid ?? '');
    assert.equal(demo.wallets.spot?.USDT?.available, '100000');
    assert.ok((await operator.listInstruments()).length >= 10);
    const info = await new SigningClient(server.url, server.credentials).get(INFO);
    assert.equal(info.body?.code, '00000', info.text);
  } finally {
    await server.stop();
  }
});

test('second start when the data directory holds a store reuses the credentials and the state', async (t) => {
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const first = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  let uid: string;
  let depositId: string;
  let firstHash: string;
  try {
    const operator = new OperatorClient(first.url, first.credentials.operatorToken);
    ({ uid } = await operator.createAccount({ label: 'survivor' }));
    depositId = (await operator.deposit(uid, { coin: 'BTC', amount: '1.23456789' })).id;
    await operator.withdraw(uid, { coin: 'BTC', amount: '0.2' });
    await operator.patchInstrument({ category: 'SPOT', symbol: 'ETHUSDT', status: 'limit_open' });
    firstHash = stateHash(first.services.sequencer.exchange.state);
  } finally {
    await first.stop();
  }
  const second = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  try {
    assert.deepEqual({ ...second.credentials, baseUrl: '' }, { ...first.credentials, baseUrl: '' });
    assert.equal(stateHash(second.services.sequencer.exchange.state), firstHash);
    const operator = new OperatorClient(second.url, second.credentials.operatorToken);
    const view = await operator.getAccount(uid);
    assert.deepEqual([view.label, view.wallets.spot?.BTC?.available], ['survivor', '1.03456789']);
    const eth = (await operator.listInstruments('SPOT')).find((row) => row.symbol === 'ETHUSDT');
    assert.equal(eth?.status, 'limit_open');
    const info = await new SigningClient(second.url, second.credentials).get(INFO);
    assert.equal(info.body?.code, '00000', 'the demo key still verifies after a restart');
    const next = await operator.deposit(uid, { coin: 'BTC', amount: '1' });
    assert.ok(BigInt(next.id) > BigInt(depositId), 'ids continue from the journal');
    const stored = JSON.parse(readFileSync(join(dataDir, 'credentials.json'), 'utf8')) as { baseUrl: string };
    assert.equal(stored.baseUrl, second.url);
    assert.equal(mode(join(dataDir, 'credentials.json')), 0o600);
  } finally {
    await second.stop();
  }
});

test('second start when credentials.json was deleted keeps the store and makes a new operator token', async (t) => {
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const first = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  const firstToken = first.credentials.operatorToken;
  const firstHash = stateHash(first.services.sequencer.exchange.state);
  await first.stop();
  unlinkSync(join(dataDir, 'credentials.json'));
  const second = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  try {
    assert.notEqual(second.credentials.operatorToken, firstToken);
    assert.equal(second.credentials.apiKey, undefined, 'the demo secret is never stored anywhere else');
    assert.equal(stateHash(second.services.sequencer.exchange.state), firstHash);
    assert.equal(mode(join(dataDir, 'credentials.json')), 0o600);
  } finally {
    await second.stop();
  }
});

test('first start when BOURSE_SEED_DEMO is false makes instruments but no demo account', async (t) => {
  const server = await startTestServer({ env: { BOURSE_SEED_DEMO: 'false' } });
  t.after(() => server.close());
  assert.equal(server.credentials.apiKey, undefined);
  assert.equal(server.services.sequencer.exchange.state.accounts.size, 0);
  assert.ok(server.services.sequencer.exchange.state.instruments.size >= 10);
});

test('start when BOURSE_OPERATOR_TOKEN is set uses it over the stored token', async (t) => {
  const dataDir = makeTempDir();
  t.after(() => removeDir(dataDir));
  const first = await startTestServer({ dataDir, config: { operatorToken: undefined } });
  await first.stop();
  const second = await startTestServer({ dataDir, config: { operatorToken: 'from-the-environment-123' } });
  try {
    assert.equal(second.credentials.operatorToken, 'from-the-environment-123');
    const operator = new OperatorClient(second.url, 'from-the-environment-123');
    assert.equal((await operator.getClock()).mode, 'real');
    const old = await new OperatorClient(second.url, first.credentials.operatorToken).call(
      'GET',
      '/admin/v1/clock',
    );
    assert.equal(old.status, 401);
  } finally {
    await second.stop();
  }
});
