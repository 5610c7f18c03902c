/**
 * The server key: the AES-256-GCM key API secrets are sealed under (security/secrets.ts).
 * From BOURSE_SERVER_KEY, else `server.key` in the data directory, else a new random one.
 *
 * A key that does not match the store is refused at start: with it every signed request
 * would fail to open its secret (HTTP 500) and every WebSocket login would go unanswered.
 * The check needs nothing stored beside the secrets themselves: the key must open the
 * sealed secrets the store holds (GCM authenticates, so a wrong key never opens one). A
 * store without API keys accepts any key, since nothing is sealed yet. A new key is written
 * to `server.key` only once the store accepted it, so a refused start leaves no key behind.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiKeyRecord } from '../domain/account.ts';
import type { SecretBox } from '../security/secrets.ts';
import { writePrivateFile } from '../security/private-files.ts';

export interface ServerKey {
  key: Buffer;
  /** Where it came from: the variable, the data directory's file, or made now (not yet saved). */
  source: 'env' | 'file' | 'new';
  /** `server.key` in the data directory. */
  file: string;
}

export function loadServerKey(dataDir: string, keyHex: string | undefined): ServerKey {
  const file = join(dataDir, 'server.key');
  if (keyHex) return { key: Buffer.from(keyHex, 'hex'), source: 'env', file };
  if (!existsSync(file)) return { key: randomBytes(32), source: 'new', file };
  const text = readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(text)) {
    throw new Error(
      `${file} is not a server key (64 hex digits): restore it from a backup, or set BOURSE_SERVER_KEY to the key`,
    );
  }
  return { key: Buffer.from(text, 'hex'), source: 'file', file };
}

/** Writes a key made at this start to `server.key` (0600); a key from elsewhere is left alone. */
export function saveNewServerKey(serverKey: ServerKey): void {
  if (serverKey.source === 'new') writePrivateFile(serverKey.file, serverKey.key.toString('hex'));
}

function opens(box: SecretBox, sealed: string): boolean {
  try {
    box.open(sealed);
    return true;
  } catch {
    return false;
  }
}

function mismatch(serverKey: ServerKey, count: number, store: string): string {
  const held = `${store} holds ${count} API key secret${count === 1 ? '' : 's'} sealed under another server key`;
  const lost =
    'If that key is lost, the stored API keys cannot be used again; start from an empty store ' +
    '(a new BOURSE_DATA_DIR, or a new database) to begin afresh';
  if (serverKey.source === 'env') {
    return (
      `BOURSE_SERVER_KEY does not match the store: ${held}. Set BOURSE_SERVER_KEY to the key the store ` +
      `was created with, or unset it to use ${serverKey.file}. ${lost}`
    );
  }
  if (serverKey.source === 'file') {
    return (
      `the server key in ${serverKey.file} does not match the store: ${held}. Put back the server.key the ` +
      `store was created with, or set BOURSE_SERVER_KEY to it. ${lost}`
    );
  }
  return (
    `${serverKey.file} is missing and ${held}: copy the server.key the store was created with into the data ` +
    `directory, or set BOURSE_SERVER_KEY to it. ${lost}`
  );
}

/**
 * Throws when the store holds sealed secrets and the key opens none of them. Returns how many
 * do not open (some may, on a store an older bourse let two keys write to).
 */
export function checkServerKey(
  box: SecretBox,
  apiKeys: Iterable<ApiKeyRecord>,
  serverKey: ServerKey,
  store: string,
): { unopened: number } {
  let opened = 0;
  let unopened = 0;
  for (const record of apiKeys) {
    if (opens(box, record.secretCipher)) opened += 1;
    else unopened += 1;
  }
  if (opened === 0 && unopened > 0) throw new Error(mismatch(serverKey, unopened, store));
  return { unopened };
}
