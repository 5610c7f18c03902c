/**
 * bourse-admin: the operator API from the command line (docs/operator.md). Each subcommand
 * is one operator route; the answer's `data` is printed as JSON on stdout. A rejected
 * request prints the venue envelope on stderr and exits 1; a usage error exits 2.
 *
 * Where the server is: --url / BOURSE_URL, and --token / BOURSE_OPERATOR_TOKEN; otherwise
 * both are read from credentials.json in --data-dir / BOURSE_DATA_DIR / ./data.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BACKUP_USAGE, runBackupCli } from './backup-cli.ts';

export const USAGE = `usage: bourse-admin <command> [arguments] [--url URL] [--token TOKEN] [--data-dir DIR]

  accounts create [--mode classic|unified] [--kind main|sub|virtual] [--parent UID] [--label TEXT]
  accounts get UID
  keys create UID [--permissions CODES] [--ip IPS] [--passphrase TEXT] [--label TEXT]
  deposit UID COIN AMOUNT [--wallet WALLET] [--sub-type onchain|internal|fast] [--status pending|success]
  withdraw UID COIN AMOUNT [--wallet WALLET] [--sub-type onchain|internal|fast] [--status pending|success]
  settle RECORD_ID success|fail
  price set CATEGORY SYMBOL INDEX_PRICE
  funding-rate set CATEGORY SYMBOL RATE|null
  instruments list [--category CATEGORY]
  instruments add FIELD=VALUE... | --json OBJECT
  instruments patch CATEGORY SYMBOL FIELD=VALUE... | --json OBJECT
  clock get
  clock advance MS
  agents register UID --rebate-rate RATE [--spot-rate RATE] [--margin-rate RATE] [--futures-rate RATE]
  agents get UID
  agents add-customer AGENT_UID CUSTOMER_UID
  kyc set UID passed|not_passed
${BACKUP_USAGE}

Lists (--permissions, --ip, supportMarginCoins=) are comma-separated.
The server and token come from --url/BOURSE_URL and --token/BOURSE_OPERATOR_TOKEN, or from
credentials.json in --data-dir/BOURSE_DATA_DIR (default ./data).`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH';
  path: string;
  body?: Record<string, unknown>;
}

class UsageError extends Error {}

const OPTIONS = {
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
  'rebate-rate': { type: 'string' },
  'spot-rate': { type: 'string' },
  'margin-rate': { type: 'string' },
  'futures-rate': { type: 'string' },
  json: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Options = Partial<Record<keyof typeof OPTIONS, string | boolean>>;

function text(options: Options, name: keyof typeof OPTIONS): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}

function list(value: string | undefined): string[] | undefined {
  return value === undefined
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/** Drops undefined fields, so only what the operator gave is sent. */
function defined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function need(positionals: string[], count: number, what: string): string[] {
  if (positionals.length !== count) throw new UsageError(`expected ${what}`);
  return positionals;
}

/** `FIELD=VALUE` pairs, or --json; lists for the margin-coin fields. */
function instrumentFields(pairs: string[], json: string | undefined): Record<string, unknown> {
  if (json !== undefined) {
    const parsed: unknown = JSON.parse(json);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError('--json must be a JSON object');
    }
    return parsed as Record<string, unknown>;
  }
  const fields: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`expected FIELD=VALUE, got ${pair}`);
    const name = pair.slice(0, at);
    const value = pair.slice(at + 1);
    fields[name] = name === 'supportMarginCoins' || name === 'marginCoins' ? list(value) : value;
  }
  return fields;
}

function accountCall(action: string, rest: string[], options: Options): Call {
  if (action === 'create') {
    need(rest, 0, 'no arguments');
    const body = defined({
      mode: text(options, 'mode'),
      kind: text(options, 'kind'),
      parentUid: text(options, 'parent'),
      label: text(options, 'label'),
    });
    return { method: 'POST', path: '/admin/v1/accounts', body };
  }
  if (action === 'get') {
    const [uid = ''] = need(rest, 1, 'UID');
    return { method: 'GET', path: `/admin/v1/accounts/${encodeURIComponent(uid)}` };
  }
  throw new UsageError(`unknown accounts action ${action}`);
}

function keyCall(action: string, rest: string[], options: Options): Call {
  if (action !== 'create') throw new UsageError(`unknown keys action ${action}`);
  const [uid = ''] = need(rest, 1, 'UID');
  const body = defined({
    permissions: list(text(options, 'permissions')),
    ipList: list(text(options, 'ip')),
    passphrase: text(options, 'passphrase'),
    label: text(options, 'label'),
  });
  return { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(uid)}/api-keys`, body };
}

function fundingCall(command: 'deposit' | 'withdraw', rest: string[], options: Options): Call {
  const [uid = '', coin, amount] = need(rest, 3, 'UID COIN AMOUNT');
  const route = command === 'deposit' ? 'deposits' : 'withdrawals';
  const body = defined({
    coin,
    amount,
    wallet: text(options, 'wallet'),
    subType: text(options, 'sub-type'),
    status: text(options, 'status'),
  });
  return { method: 'POST', path: `/admin/v1/accounts/${encodeURIComponent(uid)}/${route}`, body };
}

function instrumentCall(action: string, rest: string[], options: Options): Call {
  if (action === 'list') {
    need(rest, 0, 'no arguments');
    const category = text(options, 'category');
    const query = category ? `?category=${encodeURIComponent(category)}` : '';
    return { method: 'GET', path: `/admin/v1/instruments${query}` };
  }
  if (action === 'add') {
    return {
      method: 'POST',
      path: '/admin/v1/instruments',
      body: instrumentFields(rest, text(options, 'json')),
    };
  }
  if (action === 'patch') {
    if (rest.length < 2) throw new UsageError('expected CATEGORY SYMBOL FIELD=VALUE...');
    const [category, symbol, ...pairs] = rest;
    const body = { ...instrumentFields(pairs, text(options, 'json')), category, symbol };
    return { method: 'PATCH', path: '/admin/v1/instruments', body };
  }
  throw new UsageError(`unknown instruments action ${action}`);
}

function agentCall(action: string, rest: string[], options: Options): Call {
  if (action === 'register') {
    const [uid] = need(rest, 1, 'UID');
    const body = defined({
      uid,
      rebateRate: text(options, 'rebate-rate'),
      spotRebateRate: text(options, 'spot-rate'),
      marginRebateRate: text(options, 'margin-rate'),
      futuresRebateRate: text(options, 'futures-rate'),
    });
    return { method: 'POST', path: '/admin/v1/agents', body };
  }
  if (action === 'get') {
    const [uid = ''] = need(rest, 1, 'UID');
    return { method: 'GET', path: `/admin/v1/agents/${encodeURIComponent(uid)}` };
  }
  if (action === 'add-customer') {
    const [agentUid = '', customerUid] = need(rest, 2, 'AGENT_UID CUSTOMER_UID');
    return {
      method: 'POST',
      path: `/admin/v1/agents/${encodeURIComponent(agentUid)}/customers`,
      body: { customerUid },
    };
  }
  throw new UsageError(`unknown agents action ${action}`);
}

/** Commands of one verb and one action with fixed positionals: settle, funding-rate, kyc. */
function simpleCall(command: string, action: string, rest: string[]): Call | null {
  if (command === 'settle') {
    const [recordId = '', status] = need([action, ...rest], 2, 'RECORD_ID success|fail');
    return {
      method: 'POST',
      path: `/admin/v1/funding/${encodeURIComponent(recordId)}/settle`,
      body: { status },
    };
  }
  if (command === 'funding-rate' && action === 'set') {
    const [category, symbol, rate] = need(rest, 3, 'CATEGORY SYMBOL RATE|null');
    return {
      method: 'PUT',
      path: '/admin/v1/funding-rates',
      body: { category, symbol, rate: rate === 'null' ? null : rate },
    };
  }
  if (command === 'kyc' && action === 'set') {
    const [uid = '', result] = need(rest, 2, 'UID passed|not_passed');
    return { method: 'PUT', path: `/admin/v1/accounts/${encodeURIComponent(uid)}/kyc`, body: { result } };
  }
  if (command === 'funding-rate' || command === 'kyc')
    throw new UsageError(`unknown ${command} action ${action}`);
  return null;
}

/** The operator route for a command line, or a UsageError. */
export function callFor(positionals: string[], options: Options): Call {
  const [command = '', action = '', ...rest] = positionals;
  const simple = simpleCall(command, action, rest);
  if (simple) return simple;
  switch (command) {
    case 'accounts':
      return accountCall(action, rest, options);
    case 'keys':
      return keyCall(action, rest, options);
    case 'deposit':
    case 'withdraw':
      return fundingCall(command, positionals.slice(1), options);
    case 'price': {
      if (action !== 'set') throw new UsageError(`unknown price action ${action}`);
      const [category, symbol, indexPrice] = need(rest, 3, 'CATEGORY SYMBOL INDEX_PRICE');
      return { method: 'PUT', path: '/admin/v1/prices', body: { category, symbol, indexPrice } };
    }
    case 'instruments':
      return instrumentCall(action, rest, options);
    case 'agents':
      return agentCall(action, rest, options);
    case 'clock':
      if (action === 'get') return { method: 'GET', path: '/admin/v1/clock' };
      if (action === 'advance')
        return { method: 'POST', path: '/admin/v1/clock/advance', body: { ms: need(rest, 1, 'MS')[0] } };
      throw new UsageError(`unknown clock action ${action}`);
    default:
      throw new UsageError(command ? `unknown command ${command}` : 'no command');
  }
}

/** The server URL and operator token: flags, then environment, then credentials.json. */
export function target(options: Options, env: NodeJS.ProcessEnv): { url: string; token: string } {
  let url = text(options, 'url') ?? env.BOURSE_URL;
  let token = text(options, 'token') ?? env.BOURSE_OPERATOR_TOKEN;
  if (!url || !token) {
    const dataDir = resolve(text(options, 'data-dir') ?? (env.BOURSE_DATA_DIR || './data'));
    const file = join(dataDir, 'credentials.json');
    if (!existsSync(file)) {
      throw new UsageError(
        `no server given: set BOURSE_URL and BOURSE_OPERATOR_TOKEN, or start the server so ${file} exists`,
      );
    }
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { baseUrl?: string; operatorToken?: string };
    url ??= stored.baseUrl;
    token ??= stored.operatorToken;
  }
  if (!url || !token) throw new UsageError('the server URL or the operator token is missing');
  return { url: url.replace(/\/+$/, ''), token };
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv, io: CliIo): Promise<number> {
  // backup and restore work on the store itself, not through the operator API.
  if (argv[0] === 'backup' || argv[0] === 'restore') return runBackupCli(argv, env, io);
  let call: Call;
  let server: { url: string; token: string };
  try {
    const parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (parsed.values.help || parsed.positionals.length === 0) {
      io.stdout(`${USAGE}\n`);
      return parsed.values.help ? 0 : 2;
    }
    call = callFor(parsed.positionals, parsed.values);
    server = target(parsed.values, env);
  } catch (error) {
    io.stderr(`bourse-admin: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  return send(call, server, io);
}

async function send(call: Call, server: { url: string; token: string }, io: CliIo): Promise<number> {
  let response: Response;
  try {
    response = await fetch(`${server.url}${call.path}`, {
      method: call.method,
      headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
      ...(call.body ? { body: JSON.stringify(call.body) } : {}),
    });
  } catch (error) {
    const cause =
      error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    io.stderr(`bourse-admin: cannot reach ${server.url}: ${cause}\n`);
    return 1;
  }
  const body = await response.text();
  let envelope: { code?: unknown; data?: unknown };
  try {
    envelope = JSON.parse(body) as { code?: unknown; data?: unknown };
  } catch {
    io.stderr(`bourse-admin: HTTP ${response.status}: ${body}\n`);
    return 1;
  }
  if (envelope.code !== '00000') {
    io.stderr(`${JSON.stringify(envelope)}\n`);
    return 1;
  }
  io.stdout(`${JSON.stringify(envelope.data, null, 2)}\n`);
  return 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runCli(process.argv.slice(2), process.env, {
    stdout: (output) => process.stdout.write(output),
    stderr: (output) => process.stderr.write(output),
  }).then((code) => {
    process.exitCode = code;
  });
}
