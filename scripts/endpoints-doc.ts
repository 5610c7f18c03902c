/**
 * Generates docs/endpoints.md: every method of ccxt's `bitget` (true in `has`) and of the
 * bitget-api SDK's RestClientV2 and RestClientV3, the endpoints it calls, whether the route
 * table (src/api/routes/index.ts) serves them, and the conformance suite's verdict on it
 * (test/conformance). `npm run endpoints:doc` rewrites the file;
 * test/docs/endpoints-doc.test.ts regenerates it in memory and fails when they differ.
 *
 * Nothing here is written by hand per method: a method a library adds, a route a branch adds
 * or a verdict that changes shows up on the next run. Long reasons are printed once, in the
 * "Reasons" list, and referred to by number.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allRoutes } from '../src/api/routes/index.ts';
import type { Services } from '../src/api/services.ts';
import { CCXT_CASES, CCXT_FLAGS } from '../test/conformance/ccxt-cases.ts';
import {
  ccxtEndpoints,
  ccxtInventory,
  pathOf,
  sdkInventory,
  type SdkMethod,
} from '../test/conformance/inventory.ts';
import { outsideReason, SDK_V2_CASES, SDK_V3_CASES } from '../test/conformance/sdk-cases.ts';
import { verdictFor, type AccountKind, type Entry, type Verdict } from '../test/conformance/verdict.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The installed version of a package (its package.json in node_modules). */
function versionOf(name: string): string {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

const PRIVATE_WATCH = new Set(['watchBalance', 'watchOrders', 'watchMyTrades', 'watchPositions']);

/** `GET /path` of every venue route (the route table needs no services to be listed). */
function servedEndpoints(): Set<string> {
  const routes = allRoutes({} as Services).filter((route) => route.auth !== 'operator');
  return new Set(routes.map((route) => `${route.method} ${route.path}`));
}

class Reasons {
  readonly list: string[] = [];

  ref(reason: string): string {
    let index = this.list.indexOf(reason);
    if (index < 0) index = this.list.push(reason) - 1;
    return `R${index + 1}`;
  }
}

type Status = 'works' | 'pending' | 'out';

function statusOf(verdict: Verdict<unknown>): Status {
  if ('pending' in verdict) return 'pending';
  return 'outOfScope' in verdict ? 'out' : 'works';
}

function cell(verdict: Verdict<unknown>, reasons: Reasons): string {
  if ('pending' in verdict) return `not served yet (${reasons.ref(verdict.why)})`;
  if ('outOfScope' in verdict) return `out of scope (${reasons.ref(verdict.outOfScope)})`;
  return 'works';
}

function endpointCell(endpoints: readonly string[], served: Set<string>): string {
  if (endpoints.length === 0) return '';
  return endpoints
    .map(
      (endpoint) =>
        `\`${endpoint}\`${served.has(`${endpoint.split(' ')[0]} ${pathOf(endpoint)}`) ? '' : ' ✗'}`,
    )
    .join('<br>');
}

function count(verdicts: readonly Verdict<unknown>[]): string {
  const by = (status: Status) => verdicts.filter((verdict) => statusOf(verdict) === status).length;
  return `| ${verdicts.length} | ${by('works')} | ${by('pending')} | ${by('out')} |`;
}

function ccxtSection(served: Set<string>, reasons: Reasons): { lines: string[]; counts: string[] } {
  const { rest, pro, flags } = ccxtInventory();
  const methods = [...rest, ...pro].sort();
  const verdicts = (kind: AccountKind) =>
    methods.map((method) => verdictFor(CCXT_CASES[method] as Entry<unknown>, kind));
  const lines = [
    '## ccxt `bitget`',
    '',
    '| method | classic account | unified account | endpoints |',
    '|---|---|---|---|',
  ];
  for (const method of methods) {
    const entry = CCXT_CASES[method] as Entry<unknown>;
    const endpoints = pro.includes(method)
      ? `WebSocket ${PRIVATE_WATCH.has(method) ? '`/v2/ws/private`, `/v3/ws/private`' : '`/v2/ws/public`, `/v3/ws/public`'}`
      : endpointCell(ccxtEndpoints(method), served);
    lines.push(
      `| \`${method}\` | ${cell(verdictFor(entry, 'classic'), reasons)} | ${cell(verdictFor(entry, 'unified'), reasons)} | ${endpoints} |`,
    );
  }
  lines.push('', 'Capability flags of `has` (not methods, nothing to call):', '');
  for (const flag of flags.sort()) lines.push(`- \`${flag}\`: ${CCXT_FLAGS[flag] ?? ''}`);
  const version = versionOf('ccxt');
  return {
    lines,
    counts: [
      `| ccxt \`bitget\` ${version}, classic account ${count(verdicts('classic'))}`,
      `| ccxt \`bitget\` ${version}, unified account ${count(verdicts('unified'))}`,
    ],
  };
}

function sdkTable(
  methods: readonly SdkMethod[],
  cases: Readonly<Record<string, Entry<unknown>>>,
  served: Set<string>,
  reasons: Reasons,
): string[] {
  const lines = ['| method | endpoint | verdict |', '|---|---|---|'];
  for (const method of methods) {
    const entry = cases[method.name];
    const verdict = entry ? verdictFor(entry, 'classic') : { outOfScope: 'unclassified' };
    lines.push(
      `| \`${method.name}\` | ${endpointCell([method.endpoint], served)} | ${cell(verdict, reasons)} |`,
    );
  }
  return lines;
}

function sdkSection(
  served: Set<string>,
  reasons: Reasons,
): { lines: string[]; counts: string[]; outside: string[] } {
  const inventory = sdkInventory();
  const lines: string[] = [];
  const counts: string[] = [];
  const outside = ['| client | method | endpoint | why |', '|---|---|---|---|'];
  for (const [client, cases, kind] of [
    ['RestClientV2', SDK_V2_CASES, 'classic'],
    ['RestClientV3', SDK_V3_CASES, 'unified'],
  ] as const) {
    const mine = inventory.filter((method) => method.client === client);
    const covered = mine.filter((method) => method.family !== 'outside');
    lines.push(`## bitget-api \`${client}\` (${kind} account)`, '');
    for (const family of [...new Set(covered.map((method) => method.family))]) {
      lines.push(
        `### ${family}`,
        '',
        ...sdkTable(
          covered.filter((method) => method.family === family),
          cases as Readonly<Record<string, Entry<unknown>>>,
          served,
          reasons,
        ),
        '',
      );
    }
    const verdicts = covered.map((method) =>
      verdictFor(
        (cases as Readonly<Record<string, Entry<unknown>>>)[method.name] ?? { outOfScope: '' },
        'classic',
      ),
    );
    counts.push(
      `| bitget-api ${versionOf('bitget-api')} \`${client}\`, ${kind} account, covered families ${count(verdicts)}`,
    );
    for (const method of mine.filter((entry) => entry.family === 'outside')) {
      const reason = reasons.ref(outsideReason(pathOf(method.endpoint)));
      outside.push(
        `| ${client} | \`${method.name}\` | ${method.endpoint ? `\`${method.endpoint}\`` : ''} | ${reason} |`,
      );
    }
    counts.push(
      `| bitget-api ${versionOf('bitget-api')} \`${client}\`, outside the covered families | ${mine.length - covered.length} | | | |`,
    );
  }
  return { lines, counts, outside };
}

/** Served routes neither client calls (operator routes aside). */
function otherRoutes(served: Set<string>): string[] {
  const reached = new Set<string>();
  const { rest } = ccxtInventory();
  for (const method of rest) for (const endpoint of ccxtEndpoints(method)) reached.add(endpoint);
  for (const method of sdkInventory())
    if (method.endpoint) reached.add(`${method.endpoint.split(' ')[0]} ${pathOf(method.endpoint)}`);
  return [...served]
    .filter((endpoint) => !reached.has(endpoint))
    .sort()
    .map((endpoint) => `- \`${endpoint}\``);
}

const INTRO = [
  '# Endpoints: what ccxt and the bitget-api SDK reach',
  '',
  'Generated by `npm run endpoints:doc` from the route table (`src/api/routes/index.ts`) and the',
  'verdicts of the conformance suite (`test/conformance/`); `test/docs/endpoints-doc.test.ts`',
  'fails when this page and the generated text differ. Do not edit it by hand.',
  '',
  "The conformance suite drives ccxt's `bitget` class (ccxt.pro for `watch*`) through every",
  "method its `has` map marks true, on a classic and on a unified account, and the SDK's",
  '`RestClientV2` (classic account) and `RestClientV3` (unified account) through every method of',
  'the spot, futures, margin, account, wallet, convert and broker families, against a server at',
  'its defaults (price feed and liquidity provider on; rate limits off so that cases run side',
  'by side). **works** means a real call with sensible arguments on an account of its own, its',
  'result checked; the other verdicts give their reason (numbered, listed at the end).',
  'Endpoints marked ✗ are not in the route table; a ccxt method lists every endpoint any of its',
  'branches (spot or contract, classic or unified) may call.',
  '',
];

/**
 * The counts sentence of the README (test/docs/endpoints-doc.test.ts checks that the README
 * carries it): ccxt methods that work per account kind, SDK methods that work.
 */
export function readmeCounts(): string {
  const { rest, pro } = ccxtInventory();
  const methods = [...rest, ...pro];
  const works = (verdict: Verdict<unknown>) => statusOf(verdict) === 'works';
  const ccxtWorking = (kind: AccountKind) =>
    methods.filter((method) => works(verdictFor(CCXT_CASES[method] as Entry<unknown>, kind))).length;
  const covered = sdkInventory().filter((method) => method.family !== 'outside');
  const sdkWorking = covered.filter((method) => {
    const cases = method.client === 'RestClientV2' ? SDK_V2_CASES : SDK_V3_CASES;
    const entry = (cases as Readonly<Record<string, Entry<unknown>>>)[method.name];
    return entry !== undefined && works(verdictFor(entry, 'classic'));
  }).length;
  return (
    `ccxt ${versionOf('ccxt')}: ${ccxtWorking('classic')} of the ${methods.length} methods its \`has\` marks true work on a ` +
    `classic account, ${ccxtWorking('unified')} on a unified one; bitget-api ${versionOf('bitget-api')}: ${sdkWorking} of the ` +
    `${covered.length} methods of \`RestClientV2\` and \`RestClientV3\` in the spot, futures, margin, account, wallet, ` +
    'convert and broker families work.'
  );
}

export function renderEndpointsDoc(): string {
  const served = servedEndpoints();
  const reasons = new Reasons();
  const ccxtPart = ccxtSection(served, reasons);
  const sdkPart = sdkSection(served, reasons);
  return [
    ...INTRO,
    '## Counts',
    '',
    '| client | methods | works | not served yet | out of scope |',
    '|---|---:|---:|---:|---:|',
    ...ccxtPart.counts,
    ...sdkPart.counts,
    '',
    ...ccxtPart.lines,
    '',
    ...sdkPart.lines,
    '## bitget-api methods outside the covered families',
    '',
    ...sdkPart.outside,
    '',
    '## Served endpoints neither client calls',
    '',
    ...otherRoutes(served),
    '',
    '## Reasons',
    '',
    ...reasons.list.map((reason, index) => `- **R${index + 1}.** ${reason}`),
    '',
  ].join('\n');
}

export const ENDPOINTS_DOC_PATH = join(ROOT, 'docs', 'endpoints.md');

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(ENDPOINTS_DOC_PATH, renderEndpointsDoc());
  process.stdout.write(`wrote ${ENDPOINTS_DOC_PATH}\n`);
}
