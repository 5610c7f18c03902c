/**
 * What the conformance suite runs on: one server at its defaults (price feed, liquidity
 * provider, hedge mode for new futures accounts; only rate limits off, so concurrent cases do
 * not throttle each other), and one fresh, funded account per case so cases run concurrently
 * without touching each other's orders, positions or settings.
 *
 * A classic account holds 100 000 USDT and 2 BTC on spot and 100 000 USDT in its USDT-M
 * futures wallet; a unified account holds 100 000 USDT and 2 BTC in its one wallet. Keys may
 * trade, transfer, read and withdraw.
 */
import type { TestContext } from 'node:test';
import ccxt from 'ccxt';
import { publicGet } from '../support/http.ts';
import { OperatorClient, type IssuedKeyView } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import type { AccountKind } from './verdict.ts';

export type Bitget = InstanceType<typeof ccxt.pro.bitget>;

export const SPOT = 'BTC/USDT';
export const SWAP = 'BTC/USDT:USDT';

/** Cases in flight at once per suite (each has its own account). */
export const CONCURRENCY = 6;

/** A server at its defaults, once the house quotes both sides of the BTCUSDT spot and USDT-M books. */
export async function startDefaultsServer(): Promise<TestServer> {
  const server = await startTestServer({
    env: { BOURSE_FEED: undefined, BOURSE_LIQUIDITY: undefined, BOURSE_POSITION_MODE: undefined },
  });
  const quoted = async (path: string, query: string) => {
    const book = (await publicGet<{ asks: unknown[]; bids: unknown[] }>(server.url, path, query)).body?.data;
    return (book?.asks.length ?? 0) > 0 && (book?.bids.length ?? 0) > 0;
  };
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const spot = await quoted('/api/v2/spot/market/orderbook', 'symbol=BTCUSDT');
    if (spot && (await quoted('/api/v2/mix/market/merge-depth', 'symbol=BTCUSDT&productType=USDT-FUTURES')))
      return server;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await server.close();
  throw new Error('the liquidity provider did not quote BTCUSDT');
}

/** What a key the operator makes holds by default, and withdrawal (`wwow`), as a user would ask for. */
const PERMISSIONS = [
  'stow',
  'stor',
  'smow',
  'smor',
  'coow',
  'coor',
  'cpow',
  'cpor',
  'wtow',
  'wtor',
  'wwow',
  'taxr',
  'chor',
  'chow',
];

export interface Account {
  uid: string;
  key: IssuedKeyView;
}

export async function fundedAccount(operator: OperatorClient, kind: AccountKind): Promise<Account> {
  const { uid } = await operator.createAccount({ mode: kind });
  const wallets = kind === 'unified' ? ['unified'] : ['spot', 'usdt_futures'];
  for (const wallet of wallets) await operator.deposit(uid, { coin: 'USDT', amount: '100000', wallet });
  await operator.deposit(uid, { coin: 'BTC', amount: '2', wallet: wallets[0] });
  return { uid, key: await operator.createApiKey(uid, { permissions: PERMISSIONS }) };
}

export function operatorFor(server: TestServer): OperatorClient {
  return new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
}

/** ccxt.pro's bitget class, unmodified, pointed at the server (REST and WebSocket). */
export function ccxtFor(server: TestServer, key: IssuedKeyView, kind: AccountKind): Bitget {
  const exchange = new ccxt.pro.bitget({
    apiKey: key.apiKey,
    secret: key.secretKey,
    password: key.passphrase,
    enableRateLimit: false,
  });
  exchange.options.uta = kind === 'unified';
  const ws = server.url.replace(/^http/, 'ws');
  const urls = exchange.urls as { api: Record<string, unknown> };
  urls.api = Object.fromEntries(
    Object.keys(urls.api).map((section) => [
      section,
      section === 'ws'
        ? {
            public: `${ws}/v2/ws/public`,
            private: `${ws}/v2/ws/private`,
            utaPublic: `${ws}/v3/ws/public`,
            utaPrivate: `${ws}/v3/ws/private`,
          }
        : server.url,
    ]),
  );
  return exchange;
}

/** Polls `find` every 20 ms, at most 500 times. */
export async function until<T>(find: () => T | undefined | null | false, what: string): Promise<T> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${what}`);
}

export interface CaseRun {
  name: string;
  options: { skip?: string; todo?: string };
  body: () => Promise<void>;
}

/** One subtest per case; the parent test's `concurrency` bounds how many run at once. */
export async function runCases(t: TestContext, cases: readonly CaseRun[]): Promise<void> {
  await Promise.all(cases.map(({ name, options, body }) => t.test(name, options, body)));
}
