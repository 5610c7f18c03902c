/**
 * Starts the real server in-process (`startServer` from src/server.ts) on 127.0.0.1, port 0,
 * with a fresh temporary data directory, and captures every log line it writes.
 *
 * Rate limits are off unless a test asks for them (the account-info route allows one request
 * per second per UID, which would make ordinary tests flaky). `close()` stops the server and
 * removes the data directory unless the test supplied its own; `stop()` only stops it, so a
 * second start on the same directory can check what survived.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { loadConfig, type Config } from '../../src/config.ts';
import { startServer, type Credentials, type RunningServer } from '../../src/server.ts';

export interface TestServerOptions {
  /** Reuse this data directory (it is then not removed on close). */
  dataDir?: string;
  /**
   * Environment variables as main.ts would read them (BOURSE_CLOCK, BOURSE_RATE_LIMITS, …);
   * `undefined` removes one of this helper's test settings, leaving the server's default.
   */
  env?: Record<string, string | undefined>;
  /** Settings applied after the environment is parsed. */
  config?: Partial<Config>;
}

export interface TestServer {
  url: string;
  credentials: Credentials;
  services: RunningServer['services'];
  /** Price feeds and the liquidity provider; tests drive them with feeds.poll() / liquidity.requote(). */
  market: RunningServer['market'];
  /** The HTTP/1.1 fast path; null when it is off. */
  httpFastPath: RunningServer['httpFastPath'];
  /** Every line the server logged, in order. */
  logs: string[];
  dataDir: string;
  /** Stops the server (idempotent); the data directory stays. */
  stop(): Promise<void>;
  /** Stops the server and removes its data directory if this helper made it. */
  close(): Promise<void>;
}

export const TEST_OPERATOR_TOKEN = 'test-operator-token-0123456789abcdef';

export function makeTempDir(prefix = 'bourse-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? makeTempDir();
  const config: Config = {
    ...loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      BOURSE_DATA_DIR: dataDir,
      BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
      BOURSE_RATE_LIMITS: 'off',
      // Prices stand still and no house orders rest unless a test asks (docs/market-data.md).
      BOURSE_FEED: 'off',
      BOURSE_LIQUIDITY: 'off',
      // New accounts trade futures one-way unless a test asks for the default, hedge mode
      // (docs/futures.md).
      BOURSE_POSITION_MODE: 'one_way_mode',
      ...options.env,
    }),
    ...options.config,
  };
  const logs: string[] = [];
  let running: RunningServer;
  try {
    running = await startServer(config, (line) => logs.push(line));
  } catch (error) {
    if (ownsDir) removeDir(dataDir);
    throw error;
  }
  let stopped: Promise<void> | null = null;
  const stop = () => (stopped ??= running.close());
  return {
    url: running.url,
    // Getters: the operator's reset replaces both (src/admin/reset.ts).
    get credentials() {
      return running.credentials as Credentials;
    },
    services: running.services,
    get market() {
      return running.market;
    },
    httpFastPath: running.httpFastPath,
    logs,
    dataDir,
    stop,
    async close() {
      await stop();
      if (ownsDir) removeDir(dataDir);
    },
  };
}

/** Starts a server that `t.after` closes. */
export async function serverFor(t: TestContext, options: TestServerOptions = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  t.after(() => server.close());
  return server;
}
