/**
 * The real server as a child process (`node --import tsx src/main.ts`, or `npm start` itself),
 * as `npm start` runs it: for tests that kill it (SIGKILL), signal it, or read what it
 * prints. Without a PORT, a free one is found by listening on port 0 and closing; with
 * PORT=0 the server picks one and the URL it prints is used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Kills the child when the test file's process exits, however it exits: a file whose test timed
 * out is ended by the runner (--test-force-exit) before its after-hooks could stop the server,
 * which would otherwise run on with nobody to stop it.
 */
export function reapOnExit(child: ChildProcess): void {
  const reap = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', reap);
  child.once('exit', () => process.off('exit', reap));
}

export interface ChildServer {
  url: string;
  process: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The server's own process id, as it printed it (with `npm`, not the npm process). */
  serverPid: number;
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` and waits for the exit. */
  kill(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  /** Start with the price feed and liquidity provider at their defaults (on). */
  marketDefaults?: boolean;
  /** Run as this user and group (a test as root that needs an unprivileged server). */
  uid?: number;
  gid?: number;
  /** `npm start` instead of node directly (signals then reach node through npm and sh). */
  npm?: boolean;
}

/** How the test itself was started by npm (npm_execpath), else npm from PATH. */
function npmCommand(): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  if (cli && /npm-cli\.js$/.test(cli)) return { command: process.execPath, args: [cli, 'start'] };
  return { command: 'npm', args: ['start'] };
}

export async function spawnServer(
  env: Record<string, string>,
  timeoutMs = 20_000,
  options: SpawnOptions = {},
): Promise<ChildServer> {
  const port = env.PORT ?? String(await freePort());
  const { command, args } = options.npm
    ? npmCommand()
    : { command: process.execPath, args: ['--import', 'tsx', 'src/main.ts'] };
  const market = options.marketDefaults ? {} : { BOURSE_FEED: 'off', BOURSE_LIQUIDITY: 'off' };
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      BOURSE_LOG: 'off',
      // No background price feed or house orders unless a test asks (docs/market-data.md).
      // New accounts trade futures one-way unless a test asks for hedge mode, the default.
      BOURSE_POSITION_MODE: 'one_way_mode',
      ...market,
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.uid === undefined ? {} : { uid: options.uid }),
    ...(options.gid === undefined ? {} : { gid: options.gid }),
  });
  reapOnExit(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // The URL the server printed (PORT=0 picks one), else the one asked for.
  let url = `http://${env.HOST ?? '127.0.0.1'}:${port}`;
  let serverPid = 0;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    const check = () => {
      const listening = /bourse is listening on (\S+) \(pid (\d+)\)/.exec(stdout);
      if (listening?.[1]) {
        url = listening[1];
        serverPid = Number(listening[2]);
        clearTimeout(timer);
        child.stdout?.off('data', check);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before listening: ${stdout} ${stderr}`));
    });
  });
  return {
    url,
    process: child,
    serverPid,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
