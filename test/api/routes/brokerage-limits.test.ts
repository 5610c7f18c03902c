/**
 * Rate limits of the transfer, sub-account and broker routes, as the spec's Limits table and
 * endpoints.md state them, and one of them enforced over HTTP.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Services } from '../../../src/api/services.ts';
import { brokerRoutes } from '../../../src/api/routes/broker.ts';
import { transferRoutes } from '../../../src/api/routes/transfers.ts';
import { v2UserRoutes } from '../../../src/api/routes/v2-user.ts';
import { harness, mainAccount } from './broker-helpers.ts';

const EXPECTED: Record<string, number> = {
  'POST /api/v2/spot/wallet/transfer': 10,
  'POST /api/v3/account/transfer': 5,
  'GET /api/v2/spot/account/transferRecords': 20,
  'POST /api/v2/spot/wallet/subaccount-transfer': 10,
  'GET /api/v2/spot/account/sub-main-trans-record': 20,
  'POST /api/v2/user/create-virtual-subaccount': 5,
  'POST /api/v2/user/modify-virtual-subaccount': 5,
  'GET /api/v2/user/virtual-subaccount-list': 10,
  'POST /api/v2/user/create-virtual-subaccount-apikey': 5,
  'POST /api/v2/user/modify-virtual-subaccount-apikey': 5,
  'GET /api/v2/user/virtual-subaccount-apikey-list': 5,
  'GET /api/v2/broker/all-sub-deposit-withdrawal': 5,
  'GET /api/broker/v1/agent/customer-kyc-result': 10,
  'GET /api/v2/broker/customer-kyc-result': 10,
  'GET /api/broker/v1/agent/customer-commissions': 10,
  'GET /api/v2/broker/customer-commissions': 10,
};

test('route table when listing the brokerage routes gives each its per-UID limit', () => {
  const services = {} as Services;
  const routes = [...transferRoutes(services), ...v2UserRoutes(services), ...brokerRoutes(services)];
  const limits = Object.fromEntries(
    routes.map((route) => {
      assert.equal(route.rateLimit?.by, 'uid', route.path);
      assert.equal(route.auth, 'signed', route.path);
      return [`${route.method} ${route.path}`, route.rateLimit.perSecond];
    }),
  );
  assert.deepEqual(limits, EXPECTED);
});

test('broker report when called over 5 times a second answers 429', async (t) => {
  const h = await harness(t, { BOURSE_RATE_LIMITS: '' });
  const broker = await mainAccount(h);
  await h.operator.createAccount({ kind: 'virtual', parentUid: broker.uid });
  // 11 requests fall in at most two one-second windows, which allow 10 together.
  const answers = await Promise.all(
    Array.from({ length: 11 }, () => broker.client.get('/api/v2/broker/all-sub-deposit-withdrawal')),
  );
  const limited = answers.filter((answer) => answer.status === 429);
  assert.ok(limited.length >= 1, answers.map((answer) => answer.status).join(','));
  assert.equal(limited[0]?.body?.code, '429');
});
