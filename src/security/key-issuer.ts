/**
 * Issues an API key: makes the credentials (or takes fixed ones: the demo key of
 * BOURSE_DEMO_*), seals the secret, hashes the passphrase and submits the CreateApiKey
 * command. The plain secret and passphrase exist only in the returned value, which is shown
 * to the caller once.
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
  /** Fixed credentials instead of random ones (the demo key); the passphrase is `passphrase`. */
  apiKey?: string;
  secretKey?: string;
  timeMs: number;
}

/** Where the command goes: the live sequencer, or a staged journal (the operator's reset). */
export type CommandSink = Pick<Sequencer, 'submit'>;

export async function issueApiKey(
  sequencer: CommandSink,
  box: SecretBox,
  request: KeyRequest,
): Promise<Outcome<IssuedKey>> {
  const apiKey = request.apiKey ?? newApiKey();
  const secretKey = request.secretKey ?? newSecret();
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
