/**
 * Accounts and API keys. Keys arrive already sealed (secret encrypted, passphrase hashed) by
 * the edge; the engine only stores and indexes them.
 */
import type { CreateAccount, CreateApiKey, ModifyApiKey, RevokeApiKey } from '../../domain/commands.ts';
import { fail, ok, type Outcome } from '../../domain/result-code.ts';
import type { Context } from '../context.ts';

export function createAccount(context: Context, command: CreateAccount): Outcome<{ uid: string }> {
  const { state } = context;
  if (command.kind !== 'main') {
    const parent = command.parentUid ? state.accounts.get(command.parentUid) : undefined;
    if (!parent || parent.kind !== 'main') return fail('ACCOUNT_NOT_FOUND', 'parentUid');
  }
  const uid = String(state.nextUid);
  state.nextUid += 1;
  const account = {
    uid,
    kind: command.kind,
    parentUid: command.kind === 'main' ? null : command.parentUid,
    mode: command.mode,
    label: command.label,
    createdTimeMs: context.nowMs,
    ...(command.positionMode ? { positionMode: command.positionMode } : {}),
  };
  state.accounts.set(uid, account);
  context.emit({ type: 'AccountCreated', account: { ...account } });
  return ok({ uid });
}

export function createApiKey(context: Context, command: CreateApiKey): Outcome<{ apiKey: string }> {
  const { state } = context;
  if (!state.accounts.has(command.uid)) return fail('ACCOUNT_NOT_FOUND');
  if (state.apiKeys.has(command.apiKey)) return fail('PARAM_ERROR', 'apiKey');
  state.apiKeys.set(command.apiKey, {
    apiKey: command.apiKey,
    uid: command.uid,
    secretCipher: command.secretCipher,
    passphraseHash: command.passphraseHash,
    permissions: [...command.permissions],
    ipList: [...command.ipList],
    label: command.label,
    createdTimeMs: context.nowMs,
  });
  return ok({ apiKey: command.apiKey });
}

export function modifyApiKey(context: Context, command: ModifyApiKey): Outcome<{ apiKey: string }> {
  const record = context.state.apiKeys.get(command.apiKey);
  if (!record || record.uid !== command.uid) return fail('API_KEY_INVALID');
  if (command.permissions) record.permissions = [...command.permissions];
  if (command.ipList) record.ipList = [...command.ipList];
  if (command.label !== undefined) record.label = command.label;
  if (command.passphraseHash) record.passphraseHash = command.passphraseHash;
  if (command.frozen === true) record.frozen = true;
  else if (command.frozen === false) delete record.frozen;
  return ok({ apiKey: command.apiKey });
}

export function revokeApiKey(context: Context, command: RevokeApiKey): Outcome<{ apiKey: string }> {
  const record = context.state.apiKeys.get(command.apiKey);
  if (!record || record.uid !== command.uid) return fail('API_KEY_INVALID');
  context.state.apiKeys.delete(command.apiKey);
  return ok({ apiKey: command.apiKey });
}
