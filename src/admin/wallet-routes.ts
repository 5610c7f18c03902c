/**
 * Operator routes of deposit addresses (docs/operator.md, "Deposit addresses"): who an
 * address belongs to, and crediting it. A credit is a Deposit command to the address's
 * account, coin and chain, landing in the account's default wallet (spot; a unified
 * account's unified wallet), settled at once or left pending for the settle route.
 */
import { formatMoney, parseMoney } from '../domain/money.ts';
import { parseDepositAddress } from '../domain/funding.ts';
import { defaultWallet } from '../engine/accounts/wallets.ts';
import type { FundingReceipt } from '../engine/accounts/external-flows.ts';
import { asObject, optionalEnum, optionalString, requiredString } from '../api/params.ts';
import { reject, unwrap, type Route } from '../api/request.ts';
import type { Services } from '../api/services.ts';

export function walletAdminRoutes(services: Services): Route[] {
  const route = (method: Route['method'], path: string, handler: Route['handler']): Route => ({
    method,
    path,
    auth: 'operator',
    dialect: 'admin',
    handler,
  });
  const owner = (address: string) => {
    const parsed = parseDepositAddress(address);
    const account = parsed && services.sequencer.exchange.state.accounts.get(parsed.uid);
    if (!parsed || !account) reject('PARAM_NOT_EXIST', 'address');
    return { ...parsed, account };
  };

  return [
    route('GET', '/admin/v1/deposit-addresses/:address', (_request, params) => {
      const { uid, coin, chain, account } = owner(params.address ?? '');
      return { address: params.address, uid, coin, chain, wallet: defaultWallet(account) };
    }),
    route('POST', '/admin/v1/deposit-addresses/:address/deposits', async (request, params) => {
      const address = params.address ?? '';
      const { uid, coin, chain, account } = owner(address);
      const body = asObject(request.body);
      const amount = parseMoney(requiredString(body, 'amount'));
      if (amount === null || amount <= 0n) reject('PARAM_ERROR', 'amount');
      const status = optionalEnum(body, 'status', ['pending', 'success'] as const) ?? 'success';
      const fromAddress = optionalString(body, 'fromAddress');
      const txId = optionalString(body, 'txId');
      const receipt = unwrap(
        await services.sequencer.submit<FundingReceipt>({
          type: 'Deposit',
          timeMs: services.clock.now(),
          uid,
          coin,
          amount,
          wallet: defaultWallet(account),
          subType: 'onchain',
          status,
          route: { chain, address, ...(fromAddress ? { fromAddress } : {}), ...(txId ? { txId } : {}) },
        }),
      );
      return {
        id: receipt.recordId,
        txId: receipt.txId,
        uid,
        coin,
        chain,
        address,
        amount: formatMoney(receipt.amount),
        wallet: receipt.wallet,
        type: receipt.direction,
        status: receipt.status,
        ts: String(receipt.timeMs),
      };
    }),
  ];
}
