/**
 * The app's hooks for a cluster edge (src/api/app.ts; src/cluster/edge-reads.ts uses them):
 * a relayed route is authenticated and counted here before it is sent on, its answer goes
 * back as it came; a route not relayed is answered here; an answer header rides on every
 * answer the app makes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EdgeRequest } from '../../src/api/app.ts';
import { parseRateLimitConfig } from '../../src/api/rate-limit.ts';
import { SPOT_WRITE_ECHO, startExtraApp } from '../support/app.ts';
import { publicGet } from '../support/http.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

/** The echo route, limited to 2 requests per second per UID. */
const LIMITED_WRITE = { ...SPOT_WRITE_ECHO, rateLimit: { perSecond: 2, by: 'uid' as const } };

test('relay: writes are sent on once checked; reads, refusals and limits are the app’s own', async (t) => {
  const server = await serverFor(t);
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid, key } = await accountWithKey(operator);
  const sent: { url: string; body: string; uid: string | undefined }[] = [];
  const edge = await startExtraApp(server, [LIMITED_WRITE], {
    rateLimits: parseRateLimitConfig(undefined),
    relay: {
      relays: (route) => route.method === 'POST',
      send(request: EdgeRequest, rawBody, caller) {
        sent.push({ url: request.url, body: rawBody, uid: caller?.account.uid });
        return Promise.resolve({
          status: 200,
          text: '{"code":"00000","msg":"success","requestTime":1,"data":"from the leader"}',
          contentType: 'application/json',
          headers: [['x-relayed', 'yes']],
        });
      },
    },
  });
  t.after(() => edge.close());
  const client = new SigningClient(edge.url, key);

  const relayed = await client.post(SPOT_WRITE_ECHO.path, { body: { n: 1 } });
  assert.equal(relayed.body?.data, 'from the leader');
  assert.equal(relayed.headers.get('x-relayed'), 'yes');
  assert.deepEqual(sent, [{ url: SPOT_WRITE_ECHO.path, body: '{"n":1}', uid }]);

  const forged = await client.post(SPOT_WRITE_ECHO.path, { body: { n: 2 }, secret: 'wrong' });
  assert.equal(forged.body?.code, '40009');
  assert.equal(forged.headers.get('x-relayed'), null, 'refused here, not sent on');
  // 2 per second: of six within two seconds (the first, the forged one uncounted, five more),
  // at most four go through, so at least two of these five are refused.
  const burst = await Promise.all(
    [3, 4, 5, 6, 7].map((n) => client.post(SPOT_WRITE_ECHO.path, { body: { n } })),
  );
  const limited = burst.filter((answer) => answer.body?.code === '429').length;
  assert.ok(limited >= 2, `${limited} limited`);
  assert.equal(sent.length, 1 + burst.length - limited, 'refused requests are not sent on');

  const time = await publicGet(edge.url, '/api/v2/public/time');
  assert.equal(time.body?.code, '00000', 'a read is answered here');
  assert.equal(time.headers.get('x-relayed'), null);
});
