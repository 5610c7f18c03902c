/**
 * `npm start`: loads settings from the environment, starts the server, prints how to reach
 * it, and stops cleanly on SIGTERM or SIGINT (exit 0).
 *
 * Signals: the first SIGTERM or SIGINT stops the server (startup/shutdown.ts) and prints one
 * line; repeats are ignored, because a terminal's Ctrl-C reaches node twice under npm (from
 * the terminal and forwarded by npm). One arriving while the store is recovering abandons
 * the start (nothing is written while replaying); one arriving while a first start seeds the
 * store waits for the seeding and credentials.json, then stops. A stop that hangs past
 * STOP_DEADLINE_MS exits 1. `npm start` execs node (package.json), so the signals a
 * supervisor sends to npm reach this process.
 *
 * Secrets are printed only by the start that made them; later starts name credentials.json.
 */
import { buildConsole } from './api/console-assets.ts';
import { loadConfig, type Config } from './config.ts';
import { startServer, type RunningServer } from './server.ts';
import { startEdge } from './cluster/edge.ts';
import { startEdgePush } from './cluster/edge-push.ts';
import { startEdgeReads } from './cluster/edge-reads.ts';
import { checkRateLimitPaths } from './api/rate-limit.ts';
import { rateLimitedPaths } from './startup/route-paths.ts';

const STOP_DEADLINE_MS = 30_000;

function write(line: string): void {
  process.stdout.write(`${line}\n`);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function storeLine(server: RunningServer): string {
  const { startup } = server;
  const replay =
    startup.replayed > 0
      ? `recovered: ${startup.replayed} journal entries replayed in ${seconds(startup.recoveryMs)}` +
        (startup.snapshotSeq > 0 ? ` after the snapshot at seq ${startup.snapshotSeq}` : '')
      : startup.snapshotSeq > 0
        ? 'recovered from its snapshot'
        : 'new';
  return `  store            ${startup.store}, journal at seq ${startup.seq} (${replay})`;
}

function credentialLines(server: RunningServer): string[] {
  const { credentials, startup } = server;
  const lines: string[] = [];
  if (!credentials.uid) {
    lines.push('  demo account     none (BOURSE_SEED_DEMO=false, or credentials.json was removed)');
  } else if (startup.created.demoKey) {
    lines.push(
      `  demo account     uid ${credentials.uid}`,
      `  apiKey           ${credentials.apiKey ?? ''}`,
      `  secretKey        ${credentials.secretKey ?? ''}`,
      `  passphrase       ${credentials.passphrase ?? ''}`,
    );
  } else {
    lines.push(
      `  demo account     uid ${credentials.uid} (its API key, secret and passphrase: credentials.json)`,
    );
  }
  if (startup.operatorTokenFrom === 'env') lines.push('  operator token   from BOURSE_OPERATOR_TOKEN');
  else if (startup.created.operatorToken) lines.push(`  operator token   ${credentials.operatorToken}`);
  else lines.push('  operator token   in credentials.json');
  const shown = startup.created.demoKey || startup.created.operatorToken;
  lines.push(
    `  credentials      ${startup.credentialsFile} (mode 0600)` +
      (shown ? ': the secrets above are printed only now' : ''),
  );
  return lines;
}

function clusterLines(server: RunningServer): string[] {
  const leading = server.startup.cluster;
  if (!leading) return [];
  return [
    `  cluster          engine leading "${leading.name}" at lease epoch ${leading.epoch} ` +
      `(${leading.caughtUp} entries caught up in ${leading.takeoverMs.toFixed(0)} ms after taking the lease)`,
  ];
}

function banner(config: Config, server: RunningServer): string {
  return [
    '',
    `bourse is listening on ${server.url} (pid ${process.pid})`,
    `  data directory   ${config.dataDir}`,
    storeLine(server),
    ...clusterLines(server),
    `  clock            ${config.clock}`,
    `  console          ${server.url}/console (sign in with the operator token)`,
    ...credentialLines(server),
    '',
  ].join('\n');
}

async function stop(server: RunningServer, signal: NodeJS.Signals): Promise<never> {
  setTimeout(() => {
    process.stderr.write(`bourse did not stop within ${seconds(STOP_DEADLINE_MS)} of ${signal}; exiting\n`);
    process.exit(1);
  }, STOP_DEADLINE_MS).unref();
  const report = await server.shutdown();
  const unanswered = report.allAnswered
    ? ''
    : ' (some did not finish in time; their connections were closed)';
  write(
    `bourse stopped on ${signal}: ${report.inFlight} requests in flight answered${unanswered}, ` +
      `${report.refused} refused while stopping, journal flushed at seq ${report.seq}`,
  );
  process.exit(0);
}

/**
 * A cluster engine that lost its lease exits at once with 75 (EX_TEMPFAIL): the store refuses
 * its appends already and everything it acknowledged is committed, so there is nothing to save;
 * its supervisor starts it again, as a standby (docs/cluster.md).
 */
function onLeaseLost(why: string): void {
  process.stderr.write(`bourse: the cluster lease was lost (${why}); exiting so a standby leads\n`);
  process.exit(75);
}

/**
 * BOURSE_ROLE=edge: no engine of its own; authenticates, rate-limits and answers reads from a
 * follower of the journal, forwards writes to the leading engine, until a signal.
 */
async function runEdge(config: Config): Promise<void> {
  const { cluster, databaseUrl } = config;
  if (!cluster || !databaseUrl) return;
  // Edges apply the rate limits: a bad override stops the start, as it does an engine's.
  checkRateLimitPaths(config.rateLimits, rateLimitedPaths());
  const onError = (error: unknown) =>
    process.stderr.write(`bourse edge: ${error instanceof Error ? error.message : String(error)}\n`);
  const edge = await startEdge({
    host: config.host,
    port: config.port,
    databaseUrl,
    cluster,
    attachPush: async (server, { pool, send }) => {
      const push = await startEdgePush(server, config, cluster, onError);
      const reads = await startEdgeReads({ push, config, cluster, pool, send, logSink: write, onError });
      return {
        handle: reads.handle,
        async close() {
          reads.close();
          await push.close();
        },
      };
    },
  });
  write(
    `\nbourse edge is listening on ${edge.url} (pid ${process.pid})\n` +
      `  cluster          "${cluster.name}", forwarding to ${edge.leader() ?? 'no engine yet (none leads)'}\n`,
  );
  const onSignal = (signal: NodeJS.Signals) => {
    void edge.close().then(() => {
      write(`bourse edge stopped on ${signal}`);
      process.exit(0);
    });
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
}

async function main(): Promise<void> {
  const config = loadConfig();
  if (config.cluster?.role === 'edge') return runEdge(config);
  const starting = new AbortController();
  let server: RunningServer | null = null;
  let received: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) return;
    received = signal;
    if (server) void stop(server, signal).catch((error: unknown) => fail('stop', error));
    else starting.abort(new Error(`stopped on ${signal} while starting`));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    server = await startServer(config, write, { signal: starting.signal, onLeaseLost });
  } catch (error) {
    if (!received || error !== starting.signal.reason) throw error;
    write(`bourse stopped on ${received} before it was ready; nothing was written to the store`);
    process.exit(0);
  }
  write(banner(config, server));
  // Built now rather than on the first visit, so the console's first page comes at once.
  buildConsole().catch((error: unknown) =>
    process.stderr.write(
      `bourse: the console could not be built: ${error instanceof Error ? error.message : String(error)}\n`,
    ),
  );
  if (received) await stop(server, received);
}

function fail(what: 'start' | 'stop', error: unknown): void {
  process.stderr.write(
    `bourse failed to ${what}: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
}

main().catch((error: unknown) => fail('start', error));
