/**
 * Operator routes of the broker features (docs/operator.md, "Brokers, agents and KYC"):
 * settling (or rejecting) pending deposits and withdrawals, registering agents with their rebate rates,
 * recording the customers they referred, and setting KYC results.
 */
import { formatMoney, MONEY_SCALE } from '../domain/money.ts';
import { parseScaled } from '../domain/decimal.ts';
import type { AgentTerms } from '../engine/accounts/brokerage-state.ts';
import type { SettledFunding } from '../engine/accounts/funding-status.ts';
import { asObject, optionalString, requiredEnum, requiredString, type Fields } from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';

function rateField(body: Fields, name: string): bigint | undefined {
  const text = optionalString(body, name);
  if (text === undefined) return undefined;
  const rate = parseScaled(text, MONEY_SCALE);
  if (rate === null || rate < 0n || rate > 10n ** BigInt(MONEY_SCALE)) reject('PARAM_ERROR', name);
  return rate;
}

function termsView(uid: string, terms: AgentTerms, customers: string[]) {
  const line = (rate: bigint | undefined) => (rate === undefined ? '' : formatMoney(rate));
  return {
    uid,
    rebateRate: formatMoney(terms.rebateRate),
    spotRebateRate: line(terms.lineRates.spot),
    marginRebateRate: line(terms.lineRates.margin),
    futuresRebateRate: line(terms.lineRates.futures),
    registeredTime: String(terms.registeredTimeMs),
    customers,
  };
}

export function brokerageAdminRoutes(services: Services): Route[] {
  const now = () => services.clock.now();
  const state = () => services.sequencer.exchange.state;
  const submit = <T>(command: Parameters<typeof services.sequencer.submit>[0]) =>
    services.sequencer.submit<T>(command).then(unwrap);
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  const customersOf = (agentUid: string) =>
    [...state().brokerage.referrals.entries()]
      .filter(([, referral]) => referral.agentUid === agentUid)
      .map(([customerUid]) => customerUid)
      .sort();

  return [
    route('POST', '/admin/v1/funding/:recordId/settle', async (request, params) => {
      // `reject` is the operator's word for failing a withdrawal request: the record says `fail`.
      const given = requiredEnum(asObject(request.body), 'status', ['success', 'fail', 'reject'] as const);
      return submit<SettledFunding>({
        type: 'SettleFunding',
        timeMs: now(),
        recordId: params.recordId ?? '',
        status: given === 'reject' ? 'fail' : given,
      });
    }),
    route('POST', '/admin/v1/agents', async (request) => {
      const body = asObject(request.body);
      const uid = requiredString(body, 'uid');
      const rebateRate = rateField(body, 'rebateRate');
      if (rebateRate === undefined) reject('PARAM_EMPTY', 'rebateRate');
      const spot = rateField(body, 'spotRebateRate');
      const margin = rateField(body, 'marginRebateRate');
      const futures = rateField(body, 'futuresRebateRate');
      const terms = await submit<AgentTerms>({
        type: 'RegisterAgent',
        timeMs: now(),
        uid,
        rebateRate,
        lineRates: {
          ...(spot !== undefined ? { spot } : {}),
          ...(margin !== undefined ? { margin } : {}),
          ...(futures !== undefined ? { futures } : {}),
        },
      });
      return termsView(uid, terms, customersOf(uid));
    }),
    route('GET', '/admin/v1/agents/:uid', (_request, params) => {
      const uid = params.uid ?? '';
      const terms = state().brokerage.agents.get(uid);
      if (!terms) reject('ACCOUNT_NOT_FOUND', 'uid');
      return termsView(uid, terms, customersOf(uid));
    }),
    route('POST', '/admin/v1/agents/:uid/customers', async (request, params) => {
      const customerUid = requiredString(asObject(request.body), 'customerUid');
      return submit({ type: 'ReferCustomer', timeMs: now(), agentUid: params.uid ?? '', customerUid });
    }),
    route('PUT', '/admin/v1/accounts/:uid/kyc', async (request, params) => {
      const result = requiredEnum(asObject(request.body), 'result', ['passed', 'not_passed'] as const);
      const recorded = await submit<{ uid: string; result: string; timeMs: number }>({
        type: 'SetKycResult',
        timeMs: now(),
        uid: params.uid ?? '',
        result,
      });
      return { uid: recorded.uid, kycResult: recorded.result, ts: String(recorded.timeMs) };
    }),
  ];
}
