/**
 * Issues an API key: makes the credentials, seals the secret, hashes the passphrase and
 * submits the CreateApiKey command. The plain secret and passphrase exist only in the
 * returned value, which is shown to the caller once.
 */
import type { Outcome } from '../domain/result-code.ts';
import type { Sequencer } from '../runtime/sequencer.ts';
import { hashPassphrase, newApiKey, newPassphrase, newSecret, type SecretBox } from './secrets.ts';

export interface IssuedKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

export interface KeyRequest {
  uid: string;
  permissions: string[];
  ipList: string[];
  label: string;
  passphrase?: string;
  timeMs: number;
}

export async function issueApiKey(
  sequencer: Sequencer,
  box: SecretBox,
  request: KeyRequest,
): Promise<Outcome<IssuedKey>> {
  const apiKey = newApiKey();
  const secretKey = newSecret();
  const passphrase = request.passphrase ?? newPassphrase();
  const outcome = await sequencer.submit<{ apiKey: string }>({
    type: 'CreateApiKey',
    timeMs: request.timeMs,
    uid: request.uid,
    apiKey,
    secretCipher: box.seal(secretKey),
    passphraseHash: await hashPassphrase(passphrase),
    permissions: request.permissions,
    ipList: request.ipList,
    label: request.label,
  });
  return outcome.ok ? { ok: true, value: { apiKey, secretKey, passphrase } } : outcome;
}
