/**
 * credentials.json: the base URL, the demo account's key and the operator token.
 *
 * Invariants: the file is written 0600 and atomically (security/private-files.ts), and an existing one
 * loses group and other bits at every start. On a fresh store it is written in the same
 * start as the seeding, right after it and before the port opens to requests, so the demo
 * secret is never in a store without also being in the file. What was made at this start
 * is flagged in `created`: the banner prints a secret only then, and names the file after.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newOperatorToken } from '../security/secrets.ts';
import { tightenToPrivate, writePrivateFile } from '../security/private-files.ts';

export interface Credentials {
  baseUrl: string;
  uid: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
  operatorToken: string;
}

export type StoredCredentials = Partial<Credentials> & { operatorToken: string };

export interface DemoKey {
  uid: string;
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

export interface SettledCredentials {
  credentials: StoredCredentials;
  file: string;
  /** Made at this start: shown once, now. */
  created: { demoKey: boolean; operatorToken: boolean };
  /** Where the operator token came from. */
  operatorTokenFrom: 'env' | 'file' | 'new';
}

export interface CredentialsSettings {
  dataDir: string;
  /** BOURSE_OPERATOR_TOKEN, which wins over the stored one. */
  operatorTokenFromEnv: string | undefined;
  baseUrl: string;
  /** The store is new: stored demo fields belong to a store that is gone. */
  freshStore: boolean;
  /** Seeds the demo account (first start with BOURSE_SEED_DEMO), or null. */
  seedDemo: (() => Promise<DemoKey>) | null;
}

export function credentialsFileOf(dataDir: string): string {
  return join(dataDir, 'credentials.json');
}

function readStored(file: string): Partial<Credentials> {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    parsed = error;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || parsed instanceof Error) {
    throw new Error(
      `${file} is not a JSON object: repair it, or remove it to have a new operator token made ` +
        '(the demo secret in it cannot be recovered)',
    );
  }
  const stored: Partial<Record<keyof Credentials, string>> = {};
  for (const name of ['baseUrl', 'uid', 'apiKey', 'secretKey', 'passphrase', 'operatorToken'] as const) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'string') stored[name] = value;
  }
  return stored;
}

/** Reads credentials.json, seeds the demo key if asked, and writes what changed. */
export async function settleCredentials(settings: CredentialsSettings): Promise<SettledCredentials> {
  const file = credentialsFileOf(settings.dataDir);
  const stored = readStored(file);
  const kept: Partial<Credentials> = settings.freshStore ? { operatorToken: stored.operatorToken } : stored;
  const operatorTokenFrom = settings.operatorTokenFromEnv ? 'env' : kept.operatorToken ? 'file' : 'new';
  const operatorToken = settings.operatorTokenFromEnv ?? kept.operatorToken ?? newOperatorToken();
  const demo = settings.seedDemo ? await settings.seedDemo() : null;
  const credentials: StoredCredentials = {
    ...kept,
    ...(demo ?? {}),
    operatorToken,
    baseUrl: settings.baseUrl,
  };
  const text = `${JSON.stringify(ordered(credentials), null, 2)}\n`;
  if (!existsSync(file) || text !== `${JSON.stringify(ordered(stored as StoredCredentials), null, 2)}\n`) {
    writePrivateFile(file, text);
  } else {
    tightenToPrivate(file);
  }
  return {
    credentials,
    file,
    created: { demoKey: demo !== null, operatorToken: operatorTokenFrom === 'new' },
    operatorTokenFrom,
  };
}

/** The file's fields in a stable order (baseUrl first), whatever order they were merged in. */
function ordered(credentials: StoredCredentials): StoredCredentials {
  const { baseUrl, uid, apiKey, secretKey, passphrase, operatorToken } = credentials;
  const all = { baseUrl, uid, apiKey, secretKey, passphrase, operatorToken };
  return Object.fromEntries(
    Object.entries(all).filter(([, value]) => value !== undefined),
  ) as StoredCredentials;
}
