/**
 * Load for cluster tests: bitget-api SDK clients placing resting spot buys (every third
 * cancelled; with `trades`, a market buy every third too) against whichever engine answers, moving to the other after a failed call. What
 * was acknowledged, by which engine and when, and every answer's code, are recorded.
 */
import { RestClientV2 } from 'bitget-api';
import type { Engine } from './cluster-support.ts';

/** The venue's retryable answers (not ready, store unavailable) and a refused or cut connection. */
export const RETRYABLE = new Set(['40015', '40725', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up']);

export interface Ack {
  orderId: string;
  /** Index of the engine that answered. */
  engine: number;
  atMs: number;
}

export interface Load {
  acknowledged: Map<string, Ack>;
  cancelled: Set<string>;
  answers: Map<string, number>;
  /** Placements not acknowledged: the answer's code and the engine asked. */
  refused: Map<string, { code: string; engine: number }>;
}

export function newLoad(): Load {
  return { acknowledged: new Map(), cancelled: new Set(), answers: new Map(), refused: new Map() };
}

function codeOf(error: unknown): string {
  const failure = error as { body?: { code?: string }; code?: string; message?: string };
  return failure.body?.code ?? failure.code ?? failure.message ?? String(error);
}

/** One client: places a resting buy, cancels every third, against whichever engine answers. */
/** Resting orders one worker keeps at most: six workers stay under BTCUSDT's 200 per symbol. */
const RESTING_PER_WORKER = 25;

export async function client(
  worker: number,
  engines: Engine[],
  credentials: Record<string, string>,
  until: () => boolean,
  load: Load,
  options: { trades?: boolean } = {},
) {
  const sdks = engines.map(
    (engine) =>
      new RestClientV2({
        apiKey: credentials.apiKey ?? '',
        apiSecret: credentials.secretKey ?? '',
        apiPass: credentials.passphrase ?? '',
        baseUrl: engine.url,
      }),
  );
  let target = 0;
  // The orders this worker left resting, oldest first: kept under RESTING_PER_WORKER so that a
  // fast run never meets the venue's limit of open orders per symbol (200 on BTCUSDT: 43005).
  const resting: { clientOid: string; orderId: string }[] = [];
  for (let n = 0; !until(); n += 1) {
    const clientOid = `w${worker}-${n}`;
    const sdk = sdks[target] as RestClientV2;
    let placedOk = false;
    try {
      const placed = await sdk.spotSubmitOrder({
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: '1000',
        size: '0.01',
        clientOid,
      });
      placedOk = true;
      load.acknowledged.set(clientOid, {
        orderId: placed.data.orderId,
        engine: target,
        atMs: performance.now(),
      });
      if (n % 3 === 0) {
        await sdk.spotCancelOrder({ symbol: 'BTCUSDT', orderId: placed.data.orderId });
        load.cancelled.add(clientOid);
      } else {
        resting.push({ clientOid, orderId: placed.data.orderId });
        const oldest = resting.length > RESTING_PER_WORKER ? resting.shift() : undefined;
        if (oldest) {
          await sdk.spotCancelOrder({ symbol: 'BTCUSDT', orderId: oldest.orderId });
          load.cancelled.add(oldest.clientOid);
        }
      }
      // A market buy of 10 USDT: a trade against the liquidity provider's asks.
      if (options.trades && n % 3 === 1)
        await sdk.spotSubmitOrder({
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'market',
          force: 'gtc',
          size: '10',
          clientOid: `m-${clientOid}`,
        });
      load.answers.set('00000', (load.answers.get('00000') ?? 0) + 1);
    } catch (error) {
      const code = codeOf(error);
      if (!placedOk) load.refused.set(clientOid, { code, engine: target });
      load.answers.set(code, (load.answers.get(code) ?? 0) + 1);
      // Not answered by this engine: try the other, after a moment.
      target = (target + 1) % sdks.length;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
