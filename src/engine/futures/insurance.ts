/**
 * The insurance fund: an ordinary account (so its balance is in the conservation sum) that
 * takes over liquidated positions, keeps what is left of liquidated margin, covers losses
 * beyond a trader's balance, and collects funding rounding.
 */
import { INSURANCE_FUND_UID } from '../../domain/account.ts';
import type { EngineState } from '../state.ts';

export { INSURANCE_FUND_UID };

export function ensureInsuranceFund(state: EngineState, nowMs: number): string {
  if (!state.accounts.has(INSURANCE_FUND_UID)) {
    state.accounts.set(INSURANCE_FUND_UID, {
      uid: INSURANCE_FUND_UID,
      kind: 'main',
      parentUid: null,
      mode: 'classic',
      label: 'insurance-fund',
      createdTimeMs: nowMs,
    });
  }
  return INSURANCE_FUND_UID;
}
