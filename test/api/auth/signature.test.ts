/**
 * Which query strings a signature may cover (src/api/auth/signature.ts): the query as sent,
 * and the forms the venue's public clients sign (bitget-api: the sent string; ccxt: the
 * decoded values, keys sorted), never a form that reads as other parameters than the server
 * reads from the query it was sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ccxt from 'ccxt';
import { HmacKey } from '../../../src/api/auth/hmac-key.ts';
import { queryCandidates, sign, verifySignature } from '../../../src/api/auth/signature.ts';
import { serverFor } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const SECRET = 'secret-0123456789';
const PATH = '/api/v2/spot/account/assets';

function signedOver(query: string, timestamp = '1700000000000'): string {
  return sign(SECRET, `${timestamp}GET${PATH}${query ? `?${query}` : ''}`);
}

function verifies(signedQuery: string, sentQuery: string): boolean {
  return verifySignature(
    new HmacKey(SECRET),
    signedOver(signedQuery),
    '1700000000000',
    'GET',
    PATH,
    sentQuery,
    '',
  );
}

test('verify signature when a decoded form of the query reads as other parameters answers false', () => {
  const cases: [signed: string, sent: string][] = [
    ['coin=USDT&limit=2', 'coin%3DUSDT%26limit%3D2'],
    ['coin=USDT&limit=2', 'coin=USDT%26limit%3D2'],
    ['symbol=BTCUSDT&orderId=1', 'symbol=BTCUSDT%26orderId%3D1'],
    ['na=me=x', 'na%3Dme=x'],
    ['a=1&b=2', 'b=2%26a%3D1'],
    ['limit=2&coin=USDT', 'coin%3DUSDT%26limit%3D2'],
    ['%61=2&a=1', 'a=1&%61=2'],
  ];
  for (const [signed, sent] of cases) {
    assert.equal(verifies(signed, sent), false, `signed ${signed}, sent ${sent}`);
    assert.ok(!queryCandidates(sent).includes(signed), `${signed} is no candidate of ${sent}`);
  }
});

test('verify signature when the query is signed as sent, sorted or decoded to the same parameters answers true', () => {
  const cases: [signed: string, sent: string][] = [
    ['coin=USDT&limit=2', 'coin=USDT&limit=2'],
    ['coin=USDT&limit=2', 'limit=2&coin=USDT'],
    ['symbol=龙虾USDT', 'symbol=%E9%BE%99%E8%99%BEUSDT'],
    ['symbol=$DEGENUSDT_UMCBL', 'symbol=%24DEGENUSDT_UMCBL'],
    ['note=a b', 'note=a%20b'],
    ['note=a b', 'note=a+b'],
    ['note=a+b', 'note=a%2Bb'],
    ['note=x=y', 'note=x%3Dy'],
    ['rate=100%', 'rate=100%25'],
    ['flag', 'flag'],
  ];
  for (const [signed, sent] of cases) {
    assert.equal(verifies(signed, sent), true, `signed ${signed}, sent ${sent}`);
  }
});

test('verify signature when ccxt signs a GET with any values answers true', () => {
  const exchange = new ccxt.bitget({ apiKey: 'key', secret: SECRET, password: 'pass' });
  const values = ['BTCUSDT', '龙虾USDT', '$DEGENUSDT_UMCBL', 'a b/c:d', '100%', 'x+y', 'é', '-_.~'];
  for (const value of values) {
    const params = { symbol: value, coin: 'USDT', limit: '5' };
    const signed = exchange.sign('v2/spot/account/assets', ['private', 'spot'], 'GET', params) as {
      url: string;
      headers: Record<string, string>;
    };
    const url = new URL(signed.url);
    const rawQuery = signed.url.slice(signed.url.indexOf('?') + 1);
    const ok = verifySignature(
      new HmacKey(SECRET),
      signed.headers['ACCESS-SIGN'] ?? '',
      signed.headers['ACCESS-TIMESTAMP'] ?? '',
      'GET',
      url.pathname,
      rawQuery,
      '',
    );
    assert.equal(ok, true, `${value}: ${signed.url}`);
  }
});

test('signed GET at the server defaults when signed by ccxt answers success, and over another reading 40009', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
  const client = new SigningClient(server.url, server.credentials, 'ccxt');
  const path = '/api/v2/spot/account/assets';
  const ambiguous = await client.get(path, { query: { coin: 'USDT', note: 'a b&c=d 龙虾' } });
  assert.equal(ambiguous.body?.code, '40009', 'a raw value holding & is ambiguous: refused');
  const plain = await client.get(path, { query: { coin: 'USDT', note: '龙虾 $x+y/z' } });
  assert.equal(plain.body?.code, '00000', plain.text);
  const timestamp = Date.now();
  const signed = client.build('GET', path, { query: 'coin=USDT&limit=2', timestamp });
  const smuggled = await client.get(path, {
    query: 'coin%3DUSDT%26limit%3D2',
    timestamp,
    signature: signed.signature,
  });
  assert.equal(smuggled.body?.code, '40009', smuggled.text);
});
