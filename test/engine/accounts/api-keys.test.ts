/**
 * API keys in the engine: ModifyApiKey freezes and unfreezes, RevokeApiKey deletes, both only
 * for the key's own account, and both replay to the same state.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Command } from '../../../src/domain/commands.ts';
import { assertReplaysExactly, EngineHarness } from '../../support/engine-builders.ts';

function withKey(harness: EngineHarness): { uid: string; apiKey: string } {
  const uid = harness.account();
  const apiKey = `bg_${uid}`;
  harness.ok({
    type: 'CreateApiKey',
    timeMs: harness.nowMs,
    uid,
    apiKey,
    secretCipher: 'sealed',
    passphraseHash: 'salt:hash',
    permissions: ['stor'],
    ipList: [],
    label: 'bot',
  });
  return { uid, apiKey };
}

const code = (outcome: { ok: boolean; code?: string }) => (outcome.ok ? 'OK' : outcome.code);

test('modify api key when frozen and unfrozen marks the key and clears the mark', () => {
  const harness = new EngineHarness();
  const { uid, apiKey } = withKey(harness);
  const modify: Command = { type: 'ModifyApiKey', timeMs: harness.nowMs, uid, apiKey };
  const key = () => harness.state.apiKeys.get(apiKey);
  harness.ok({ ...modify, frozen: true });
  assert.equal(key()?.frozen, true);
  harness.ok({ ...modify, label: 'renamed' });
  assert.deepEqual([key()?.label, key()?.frozen], ['renamed', true], 'a change without `frozen` keeps it');
  harness.ok({ ...modify, frozen: false });
  assert.equal('frozen' in (key() ?? {}), false, 'no mark left behind');
  assertReplaysExactly(harness);
});

test('revoke api key when the key is the account own deletes it, otherwise answers API_KEY_INVALID', () => {
  const harness = new EngineHarness();
  const { uid, apiKey } = withKey(harness);
  const other = harness.account();
  const revoke: Command = { type: 'RevokeApiKey', timeMs: harness.nowMs, uid: other, apiKey };
  assert.equal(code(harness.run(revoke).outcome), 'API_KEY_INVALID');
  assert.ok(harness.state.apiKeys.has(apiKey));
  assert.equal(code(harness.run({ ...revoke, uid }).outcome), 'OK');
  assert.equal(harness.state.apiKeys.has(apiKey), false);
  assert.equal(code(harness.run({ ...revoke, uid }).outcome), 'API_KEY_INVALID', 'a key is revoked once');
  const frozen = harness.run({ type: 'ModifyApiKey', timeMs: harness.nowMs, uid, apiKey, frozen: true });
  assert.equal(code(frozen.outcome), 'API_KEY_INVALID');
  assertReplaysExactly(harness);
});
