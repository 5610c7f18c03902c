/**
 * Transfer request fields: account types in every spelling the clients send (the two doc
 * generations, `-` for `_`, `uta` for the unified wallet, the demo futures wallets), amounts
 * as strings or JSON numbers, and clientOid. Wallet types print back in the current names.
 */
import { parseMoney } from '../../domain/money.ts';
import type { WalletType } from '../../domain/wallet.ts';
import { optionalString, requiredString, type Fields } from '../params.ts';
import { reject } from '../request.ts';
import { nameTable } from '../../domain/name-table.ts';

const ACCOUNT_TYPES: Readonly<Record<string, WalletType>> = nameTable({
  spot: 'spot',
  crossed_margin: 'crossed_margin',
  cross_margin: 'crossed_margin',
  isolated_margin: 'isolated_margin',
  usdt_futures: 'usdt_futures',
  usdt_m_futures: 'usdt_futures',
  coin_futures: 'coin_futures',
  coin_m_futures: 'coin_futures',
  usdc_futures: 'usdc_futures',
  usdc_m_futures: 'usdc_futures',
  susdt_futures: 'susdt_futures',
  scoin_futures: 'scoin_futures',
  susdc_futures: 'susdc_futures',
  uta: 'unified',
  unified: 'unified',
});

export function accountTypeOf(text: string): WalletType | null {
  return ACCOUNT_TYPES[text.toLowerCase().replace(/-/g, '_')] ?? null;
}

/** The wallet id a `fromType`/`toType` field names (`isolated_margin:SYMBOL` with `symbol`). */
export function walletField(fields: Fields, name: 'fromType' | 'toType'): string {
  const type = accountTypeOf(requiredString(fields, name));
  if (type === null) reject('PARAM_ERROR', name);
  if (type !== 'isolated_margin') return type;
  const symbol = optionalString(fields, 'symbol');
  if (symbol === undefined) reject('PARAM_EMPTY', 'symbol');
  return `isolated_margin:${symbol.toUpperCase()}`;
}

/** How a wallet type prints in records: `uta` for the unified wallet, `spot` for the funding wallet. */
export function accountTypeName(type: string): string {
  if (type === 'funding') return 'spot';
  return type === 'unified' ? 'uta' : type;
}

export function amountField(fields: Fields): bigint {
  const amount = parseMoney(requiredString(fields, 'amount'));
  if (amount === null || amount <= 0n) reject('PARAM_ERROR', 'amount');
  return amount;
}

const CLIENT_OID_PATTERN = /^[\w.:/#+-]{1,64}$/;

export function clientOidField(fields: Fields): string {
  const clientOid = optionalString(fields, 'clientOid');
  if (clientOid === undefined) return '';
  if (!CLIENT_OID_PATTERN.test(clientOid)) reject('PARAM_ERROR', 'clientOid');
  return clientOid;
}
