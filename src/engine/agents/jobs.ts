/**
 * Clock jobs of transfers and agents, run before every command at the command's time:
 * closing finished UTC+8 days into commission records, and, hourly, forgetting transfer
 * clientOids older than the idempotency window. Both are idempotent.
 */
import { pruneTransferClientOids } from '../accounts/transfers.ts';
import type { Context } from '../context.ts';
import { closeCommissionDays } from './commissions.ts';
import { HOUR_MS } from './days.ts';

export function runBrokerageJobs(context: Context): void {
  closeCommissionDays(context);
  const { brokerage } = context.state;
  const hourStart = Math.floor(context.nowMs / HOUR_MS) * HOUR_MS;
  if (hourStart <= brokerage.clientOidsPrunedToMs) return;
  brokerage.clientOidsPrunedToMs = hourStart;
  pruneTransferClientOids(context.state, context.nowMs);
}
