/**
 * The wallet family's routes in one list (so the route index takes one line): fee rates,
 * deposit addresses and withdrawals, deposit and withdrawal records, the funding wallet and
 * convert (docs/wallet.md).
 */
import type { Route } from '../request.ts';
import type { Services } from '../services.ts';
import { convertRoutes } from './convert.ts';
import { feeRoutes } from './fees.ts';
import { walletRecordRoutes } from './wallet-records.ts';
import { walletRoutes } from './wallet.ts';

export function walletFamilyRoutes(services: Services): Route[] {
  return [
    ...feeRoutes(services),
    ...walletRoutes(services),
    ...walletRecordRoutes(services),
    ...convertRoutes(services),
  ];
}
