/**
 * Fixed demo credentials: the API key, secret and passphrase the demo account gets on a fresh
 * store and after every operator reset, so that a bot's configuration survives both. From
 * BOURSE_DEMO_API_KEY, BOURSE_DEMO_SECRET_KEY and BOURSE_DEMO_PASSPHRASE (all three), or from
 * the JSON file BOURSE_DEMO_CREDENTIALS names (`apiKey`, `secretKey`, `passphrase`: the shape
 * of credentials.json, so a copy of it serves). Unset, the demo key is random, as before.
 *
 * Checked once at start; every error names the variable (and the field of the file).
 */
import { readFileSync } from 'node:fs';

export interface DemoCredentials {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}

const VARIABLES = {
  apiKey: 'BOURSE_DEMO_API_KEY',
  secretKey: 'BOURSE_DEMO_SECRET_KEY',
  passphrase: 'BOURSE_DEMO_PASSPHRASE',
} as const;

type Field = keyof typeof VARIABLES;

/** What each field may be: the venue's own shapes, a little wider for keys made elsewhere. */
const RULES: Record<Field, { pattern: RegExp; says: string }> = {
  apiKey: { pattern: /^[A-Za-z0-9_-]{8,64}$/, says: 'must be 8 to 64 letters, digits, _ or -' },
  secretKey: { pattern: /^[!-~]{16,128}$/, says: 'must be 16 to 128 printable characters without spaces' },
  passphrase: { pattern: /^[A-Za-z0-9]{8,32}$/, says: 'must be 8 to 32 letters and digits' },
};

function checked(values: Record<Field, unknown>, nameOf: (field: Field) => string): DemoCredentials {
  const result: Partial<DemoCredentials> = {};
  for (const field of Object.keys(RULES) as Field[]) {
    const value = values[field];
    if (value === undefined || value === '') throw new Error(`${nameOf(field)} is missing`);
    if (typeof value !== 'string' || !RULES[field].pattern.test(value)) {
      throw new Error(`${nameOf(field)} ${RULES[field].says}`);
    }
    result[field] = value;
  }
  return result as DemoCredentials;
}

function fromFile(file: string): DemoCredentials {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`BOURSE_DEMO_CREDENTIALS: cannot read ${file} as JSON: ${reason}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Error(`BOURSE_DEMO_CREDENTIALS: ${file} must hold a JSON object`);
  }
  const fields = parsed as Record<string, unknown>;
  const own = (field: Field) => (Object.hasOwn(fields, field) ? fields[field] : undefined);
  return checked(
    { apiKey: own('apiKey'), secretKey: own('secretKey'), passphrase: own('passphrase') },
    (field) => `BOURSE_DEMO_CREDENTIALS: ${field} in ${file}`,
  );
}

/** The fixed demo credentials the environment asks for, or undefined for random ones. */
export function parseDemoCredentials(env: NodeJS.ProcessEnv, seedDemo: boolean): DemoCredentials | undefined {
  const file = env.BOURSE_DEMO_CREDENTIALS || undefined;
  const given = (Object.values(VARIABLES) as string[]).filter((name) => env[name]);
  if (file === undefined && given.length === 0) return undefined;
  const first = file !== undefined ? 'BOURSE_DEMO_CREDENTIALS' : given[0];
  if (!seedDemo) throw new Error(`${first} is set but BOURSE_SEED_DEMO is false: there is no demo account`);
  if (file !== undefined && given.length > 0) {
    throw new Error(`set BOURSE_DEMO_CREDENTIALS or ${given.join(', ')}, not both`);
  }
  if (file !== undefined) return fromFile(file);
  const missing = (Object.values(VARIABLES) as string[]).filter((name) => !env[name]);
  if (missing.length > 0) {
    throw new Error(`${missing.join(' and ')} missing: set ${Object.values(VARIABLES).join(', ')} together`);
  }
  return checked(
    {
      apiKey: env[VARIABLES.apiKey],
      secretKey: env[VARIABLES.secretKey],
      passphrase: env[VARIABLES.passphrase],
    },
    (field) => VARIABLES[field],
  );
}
