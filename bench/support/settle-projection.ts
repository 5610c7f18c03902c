/**
 * Waits until a bourse's projector has written everything it acknowledged: a signed history
 * read (order fills) waits for exactly that on the server (runtime/projected-reads.ts), and is
 * retried while it answers the retryable 40725. Called after each measurement, so that one
 * server's projector catching up never runs beside the next server's measurement.
 */
import { createHmac } from 'node:crypto';

const PATH = '/api/v2/spot/trade/fills';
const QUERY = 'symbol=BTCUSDT&limit=1';

export async function settleProjection(
  url: string,
  signing: { apiKey: string; secretKey: string; passphrase: string },
  timeoutMs = 120_000,
): Promise<number> {
  const startedMs = Date.now();
  for (let attempt = 0; Date.now() - startedMs < timeoutMs; attempt += 1) {
    const timestamp = String(Date.now());
    const sign = createHmac('sha256', signing.secretKey)
      .update(`${timestamp}GET${PATH}?${QUERY}`)
      .digest('base64');
    const response = await fetch(`${url}${PATH}?${QUERY}`, {
      headers: {
        'ACCESS-KEY': signing.apiKey,
        'ACCESS-SIGN': sign,
        'ACCESS-TIMESTAMP': timestamp,
        'ACCESS-PASSPHRASE': signing.passphrase,
        'Content-Type': 'application/json',
        locale: 'en-US',
      },
    });
    const body = (await response.json()) as { code?: string };
    if (body.code === '00000') return Date.now() - startedMs;
    if (body.code !== '40725') throw new Error(`settling the projection: ${JSON.stringify(body)}`);
  }
  throw new Error(`the projection did not settle within ${timeoutMs} ms`);
}
