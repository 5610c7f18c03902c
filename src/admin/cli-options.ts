/**
 * The command line of bourse-admin, parsed: its options, and what each subcommand turns into
 * (`Call`: one operator route, with its query string or JSON body). Shared by the builders
 * in cli-calls.ts and cli-account-calls.ts.
 */
export interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: Record<string, unknown>;
}

/** A command line that names no route (exit 2 with the usage). */
export class UsageError extends Error {}

export const OPTIONS = {
  url: { type: 'string' },
  token: { type: 'string' },
  'data-dir': { type: 'string' },
  mode: { type: 'string' },
  kind: { type: 'string' },
  parent: { type: 'string' },
  label: { type: 'string' },
  permissions: { type: 'string' },
  ip: { type: 'string' },
  passphrase: { type: 'string' },
  wallet: { type: 'string' },
  'sub-type': { type: 'string' },
  category: { type: 'string' },
  status: { type: 'string' },
  symbol: { type: 'string' },
  coin: { type: 'string' },
  uid: { type: 'string' },
  'order-id': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'rebate-rate': { type: 'string' },
  'spot-rate': { type: 'string' },
  'margin-rate': { type: 'string' },
  'futures-rate': { type: 'string' },
  json: { type: 'string' },
  'from-address': { type: 'string' },
  'tx-id': { type: 'string' },
  yes: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export type Options = Partial<Record<keyof typeof OPTIONS, string | boolean>>;

export function text(options: Options, name: keyof typeof OPTIONS): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

/** A comma-separated list (blank items dropped: `--ip ''` is the empty list). */
export function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/** Drops undefined fields, so only what the operator gave is sent. */
export function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** `path` with the given query parameters (those not undefined), encoded. */
export function withQuery(path: string, fields: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) query.set(name, value);
  const encoded = query.toString();
  return encoded ? `${path}?${encoded}` : path;
}

export function need(positionals: string[], count: number, what: string): string[] {
  if (positionals.length !== count) throw new UsageError(`expected ${what}`);
  return positionals;
}

/** A path segment from the command line. */
export const segment = (value: string | undefined): string => encodeURIComponent(value ?? '');
