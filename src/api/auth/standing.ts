/**
 * Whether an API key may act now: it exists (a revoked key is gone), it is not frozen, its
 * account exists, and the account is not frozen. One function for every place that asks: a signed request (authenticate.ts), a
 * WebSocket login (ws/login.ts), and an open WebSocket session after any change of state
 * (ws/sessions.ts), so a new reason to refuse a key applies to all three at once.
 */
import type { Account, ApiKeyRecord } from '../../domain/account.ts';
import type { EngineState } from '../../engine/state.ts';

export type Standing =
  | { key: ApiKeyRecord; account: Account }
  | { refused: 'API_KEY_INVALID' }
  | { refused: 'USER_STATUS_ABNORMAL'; frozen: 'account' | 'API key' };

export function standingOf(state: EngineState, apiKey: string): Standing {
  const key = state.apiKeys.get(apiKey);
  const account = key ? state.accounts.get(key.uid) : undefined;
  if (!key || !account) return { refused: 'API_KEY_INVALID' };
  if (account.status === 'freeze') return { refused: 'USER_STATUS_ABNORMAL', frozen: 'account' };
  if (key.frozen) return { refused: 'USER_STATUS_ABNORMAL', frozen: 'API key' };
  return { key, account };
}
