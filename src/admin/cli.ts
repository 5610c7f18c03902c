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
import { callFor } from './cli-calls.ts';
import { OPTIONS, text, UsageError, type Call, type Options } from './cli-options.ts';
import { BACKUP_USAGE, runBackupCli } from './backup-cli.ts';

export const USAGE = `usage: bourse-admin <command> [arguments] [--url URL] [--token TOKEN] [--data-dir DIR]

  accounts create [--mode classic|unified] [--kind main|sub|virtual] [--parent UID] [--label TEXT]
  accounts list [--kind KIND] [--mode MODE] [--label TEXT] [--parent UID] [--limit N] [--cursor UID]
  accounts get UID
  accounts orders UID [--status open|closed|all] [--category C] [--symbol S] [--limit N] [--cursor ID]
  accounts fills UID [--category C] [--symbol S] [--order-id ID] [--limit N] [--cursor ID]
  accounts positions UID [--category C]
  accounts balances UID [--wallet WALLET] [--coin COIN]
  keys create UID [--permissions CODES] [--ip IPS] [--passphrase TEXT] [--label TEXT]
  keys list [--uid UID] [--status normal|frozen] [--limit N] [--cursor KEY]
  keys update KEY [--permissions CODES] [--ip IPS] [--label TEXT]
  keys freeze KEY | keys unfreeze KEY | keys revoke KEY
  deposit UID COIN AMOUNT [--wallet WALLET] [--sub-type onchain|internal|fast] [--status pending|success]
  withdraw UID COIN AMOUNT [--wallet WALLET] [--sub-type onchain|internal|fast] [--status pending|success]
  settle RECORD_ID success|fail|reject
  address get ADDRESS
  address deposit ADDRESS AMOUNT [--status pending|success] [--from-address TEXT] [--tx-id TEXT]
  price set CATEGORY SYMBOL INDEX_PRICE
  funding-rate set CATEGORY SYMBOL RATE|null
  instruments list [--category CATEGORY]
  instruments add FIELD=VALUE... | --json OBJECT
  instruments patch CATEGORY SYMBOL FIELD=VALUE... | --json OBJECT
  feeds list
  feeds pause FEED|* | feeds pause CATEGORY SYMBOL      a paused stream's index moves only by 'price set'
  feeds resume FEED|* | feeds resume CATEGORY SYMBOL
  liquidity get | liquidity inventory
  liquidity set FIELD=VALUE...    enabled=on|off levels= spread= step= notional= intervalMs= maxPosition= leverage=
  clock get
  clock advance MS
  agents register UID --rebate-rate RATE [--spot-rate RATE] [--margin-rate RATE] [--futures-rate RATE]
  agents get UID
  agents add-customer AGENT_UID CUSTOMER_UID
  kyc set UID passed|not_passed
  reset --yes                     back to the first-start state (deletes every account and order)
${BACKUP_USAGE}

Lists (--permissions, --ip, supportMarginCoins=) are comma-separated.
The server and token come from --url/BOURSE_URL and --token/BOURSE_OPERATOR_TOKEN, or from
credentials.json in --data-dir/BOURSE_DATA_DIR (default ./data).`;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
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
    if (parsed.values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
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
