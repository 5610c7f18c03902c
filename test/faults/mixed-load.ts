/**
 * A sustained mixed load for fault tests, against a running server (child or in-process):
 * signed v3 place-batch (buys and sells that cross, so there are fills and bills), cancels of
 * the worker's own resting orders, wallet transfers (spot ⇄ USDT futures), operator deposits
 * and withdrawals, plan (trigger) orders on USDT futures, and index-price moves on spot and
 * USDT futures (each runs the margin and futures risk checks and the triggers). Every answer is classified: acknowledged (success, its
 * effect must survive), refused with a retryable code (40010 / 40725 / 45001: outcome
 * unknown, the client would query by clientOid), or lost (no answer: the process died).
 * A 400 with a venue code is a business refusal (cancelling an order that filled meanwhile).
 * Anything else — no venue envelope, another 5xx — is recorded as unexpected, which the
 * tests assert is empty. Bounded: `steps` per worker at most, and it
 * stops at `stop()`.
 */
import { OperatorClient, type FundingView } from '../support/operator.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';

export const RETRYABLE = new Set(['40010', '40725', '45001']);

export interface Trader {
  uid: string;
  credentials: ApiCredentials;
}

export interface AckedOrder {
  uid: string;
  orderId: string;
  clientOid: string;
}

export interface LoadResult {
  orders: AckedOrder[];
  cancels: AckedOrder[];
  funding: FundingView[];
  transfers: { uid: string; transferId: string }[];
  /** Acknowledged plan (trigger) orders. */
  plans: number;
  prices: string[];
  retryable: number;
  /** Business refusals (e.g. cancelling an order that filled meanwhile): answered, nothing changed. */
  refused: number;
  lost: number;
  unexpected: string[];
}

export interface RunningLoad {
  result: LoadResult;
  /** Resolves after `count` more acknowledgements of any kind. */
  acknowledged(count: number): Promise<void>;
  stop(): Promise<LoadResult>;
}

const TOKEN_PREFIX = 'fault';

/** Traders funded on both sides of BTCUSDT spot, each with a key. */
export async function fundedTraders(baseUrl: string, token: string, count: number): Promise<Trader[]> {
  const operator = new OperatorClient(baseUrl, token);
  const traders: Trader[] = [];
  for (let index = 0; index < count; index += 1) {
    const { uid } = await operator.createAccount({ label: `${TOKEN_PREFIX}${index}` });
    await operator.deposit(uid, { coin: 'USDT', amount: '10000000' });
    await operator.deposit(uid, { coin: 'BTC', amount: '1000' });
    const key = await operator.createApiKey(uid);
    traders.push({ uid, credentials: key });
  }
  return traders;
}

interface Answer {
  status: number;
  code: string | undefined;
  data: unknown;
}

export function startMixedLoad(
  baseUrl: string,
  token: string,
  traders: readonly Trader[],
  options: { steps?: number; tag?: string } = {},
): RunningLoad {
  const steps = options.steps ?? 5_000;
  const tag = options.tag ?? 'L';
  const operator = new OperatorClient(baseUrl, token);
  const result: LoadResult = {
    orders: [],
    cancels: [],
    funding: [],
    transfers: [],
    plans: 0,
    prices: [],
    retryable: 0,
    refused: 0,
    lost: 0,
    unexpected: [],
  };
  let stopped = false;
  let acknowledgements = 0;
  const waiters: { at: number; resolve: () => void }[] = [];
  const acknowledge = () => {
    acknowledgements += 1;
    for (const waiter of waiters.filter((item) => item.at <= acknowledgements)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  /** Runs a request; the answer when it is a success, null otherwise (classified). */
  const attempt = async (call: () => Promise<Answer>, what: string): Promise<unknown> => {
    let answer: Answer;
    try {
      answer = await call();
    } catch {
      result.lost += 1;
      return null;
    }
    if (answer.code === '00000') return answer.data ?? {};
    if (answer.code && RETRYABLE.has(answer.code)) result.retryable += 1;
    else if (answer.code && answer.status === 400) result.refused += 1;
    else result.unexpected.push(`${what}: ${answer.status} ${answer.code ?? 'no envelope'}`);
    return null;
  };
  const signed = async (client: SigningClient, path: string, body: unknown): Promise<Answer> => {
    const response = await client.post(path, { body });
    return { status: response.status, code: response.body?.code, data: response.body?.data };
  };
  const admin = async (method: string, path: string, body: unknown): Promise<Answer> => {
    const response = await operator.call(method, path, body);
    return { status: response.status, code: response.body?.code, data: response.body?.data };
  };

  const worker = async (trader: Trader, index: number) => {
    const client = new SigningClient(baseUrl, trader.credentials);
    const resting: AckedOrder[] = [];
    for (let step = 0; step < steps && !stopped; step += 1) {
      const kind = step % 10;
      if ((kind === 3 || kind === 5) && resting.length > 0) {
        const order = resting.pop() as AckedOrder; // the newest: the likeliest to be still resting
        const body = { category: 'SPOT', symbol: 'BTCUSDT', orderId: order.orderId };
        const data = await attempt(() => signed(client, '/api/v3/trade/cancel-order', body), 'cancel');
        if (data && !stopped) {
          result.cancels.push(order);
          acknowledge();
        }
      } else if (kind === 6) {
        const direction = step % 20 === 6 ? 'withdrawals' : 'deposits';
        const body = { coin: 'USDT', amount: `${(step % 50) + 1}.0000001` };
        const data = await attempt(
          () => admin('POST', `/admin/v1/accounts/${trader.uid}/${direction}`, body),
          direction,
        );
        if (data && !stopped) {
          result.funding.push(data as FundingView);
          acknowledge();
        }
      } else if (kind === 8) {
        // Spot → USDT futures and back, alternately: bills on both sides of one command.
        const outward = step % 20 === 8;
        const body = {
          fromType: outward ? 'spot' : 'usdt_futures',
          toType: outward ? 'usdt_futures' : 'spot',
          coin: 'USDT',
          amount: '3',
          clientOid: `${tag}-t-${index}-${step}`,
        };
        const data = await attempt(() => signed(client, '/api/v2/spot/wallet/transfer', body), 'transfer');
        if (data && !stopped) {
          result.transfers.push({
            uid: trader.uid,
            transferId: String((data as { transferId: unknown }).transferId),
          });
          acknowledge();
        }
      } else if (kind === 2 && step % 20 === 2) {
        // A trigger (plan) order on USDT futures, fired when a price move below crosses it.
        const body = {
          planType: 'normal_plan',
          symbol: 'BTCUSDT',
          productType: 'USDT-FUTURES',
          marginMode: 'crossed',
          marginCoin: 'USDT',
          size: '0.001',
          triggerPrice: String(59_950 + ((step * 7 + index) % 100)),
          triggerType: 'mark_price',
          side: step % 40 === 2 ? 'buy' : 'sell',
          orderType: 'market',
          clientOid: `${tag}-p-${index}-${step}`,
        };
        const data = await attempt(() => signed(client, '/api/v2/mix/order/place-plan-order', body), 'plan');
        if (data && !stopped) {
          result.plans += 1;
          acknowledge();
        }
      } else if (kind === 9 && index === 0) {
        const indexPrice = String(59_900 + (step % 200));
        // Alternately the spot and the USDT-futures index (the latter moves the mark price
        // that the plan orders above trigger on).
        const category = step % 20 === 9 ? 'SPOT' : 'USDT-FUTURES';
        const body = { category, symbol: 'BTCUSDT', indexPrice };
        const data = await attempt(() => admin('PUT', '/admin/v1/prices', body), 'price');
        if (data && !stopped) {
          result.prices.push(indexPrice);
          acknowledge();
        }
      } else {
        const items = [0, 1, 2, 3].map((item) => {
          const side = (step + item + index) % 2 === 0 ? 'buy' : 'sell';
          const offset = ((step * 7 + item * 13 + index) % 40) - 20;
          return {
            category: 'SPOT',
            symbol: 'BTCUSDT',
            side,
            orderType: 'limit',
            price: (60_000 + offset).toFixed(2),
            qty: '0.001',
            clientOid: `${tag}-${index}-${step}-${item}`,
          };
        });
        const data = await attempt(() => signed(client, '/api/v3/trade/place-batch', items), 'place-batch');
        if (data && !stopped) {
          for (const item of data as { orderId?: string | null; clientOid: string; code?: string }[]) {
            if (!item.orderId || item.code) continue;
            const order = { uid: trader.uid, orderId: item.orderId, clientOid: item.clientOid };
            result.orders.push(order);
            resting.push(order);
          }
          acknowledge();
        }
      }
    }
  };
  const running = Promise.all(traders.map((trader, index) => worker(trader, index)));
  return {
    result,
    acknowledged(count) {
      const at = acknowledgements + count;
      return new Promise((resolve) => {
        if (acknowledgements >= at) resolve();
        else waiters.push({ at, resolve });
      });
    },
    async stop() {
      stopped = true;
      await running;
      for (const waiter of waiters.splice(0)) waiter.resolve();
      return result;
    },
  };
}
