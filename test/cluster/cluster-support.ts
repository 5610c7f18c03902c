/**
 * Cluster tests' helpers: engines as child processes (`node --import tsx src/main.ts` with
 * BOURSE_ROLE=engine, the price feed and liquidity provider at their defaults), which a test
 * kills with SIGKILL or stops with SIGSTOP; a unique cluster name per test (so a unique
 * JetStream stream, deleted after), and the shared server key and operator token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { connect } from 'nats';
import { streamNameOf } from '../../src/cluster/entry-stream.ts';
import { freePort, reapOnExit, REPO_ROOT } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';

export const NATS_URL = process.env.BOURSE_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

export interface ClusterSettings {
  name: string;
  env: Record<string, string>;
}

/** A cluster's shared settings; its JetStream stream is deleted when the test ends. */
export function clusterFor(
  t: TestContext,
  databaseUrl: string,
  extra: Record<string, string> = {},
): ClusterSettings {
  const name = `t${process.pid}_${randomBytes(4).toString('hex')}`;
  t.after(() => deleteStream(name));
  return {
    name,
    env: {
      BOURSE_ROLE: 'engine',
      BOURSE_CLUSTER_NAME: name,
      BOURSE_DATABASE_URL: databaseUrl,
      BOURSE_SERVER_KEY: randomBytes(32).toString('hex'),
      BOURSE_OPERATOR_TOKEN: `op-${randomBytes(16).toString('hex')}`,
      BOURSE_NATS_URL: NATS_URL,
      // Keep the whole journal: the test replays it from its first entry.
      BOURSE_JOURNAL_RETAIN_HOURS: 'all',
      ...extra,
    },
  };
}

export async function deleteStream(cluster: string): Promise<void> {
  const nc = await connect({ servers: NATS_URL, timeout: 2_000 });
  try {
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(streamNameOf(cluster)).catch(() => false);
  } finally {
    await nc.close();
  }
}

export interface Engine {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts an engine (it stands by or leads), or with BOURSE_ROLE=edge an edge; resolves once its port answers /ready. */
export async function startEngine(t: TestContext, cluster: ClusterSettings): Promise<Engine> {
  const dataDir = makeTempDir('bourse-cluster-');
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), BOURSE_DATA_DIR: dataDir, ...cluster.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const engine: Engine = {
    url: `http://127.0.0.1:${port}`,
    dataDir,
    child,
    output: () => output,
    exited,
    async kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      if (signal === 'SIGSTOP') return { code: null, signal };
      return exited;
    },
  };
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    }
    removeDir(dataDir);
  });
  await waitFor(async () => (await status(engine.url)) !== null, 20_000, `${engine.url} to answer`).catch(
    (error: Error) => {
      // What the process printed says why it never answered.
      throw new Error(`${error.message}; it printed: ${output.slice(-2_000)}`);
    },
  );
  return engine;
}

/** `ready`, `starting`, … as GET /ready says; null when nothing answers. */
export async function status(url: string): Promise<string | null> {
  try {
    const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(1_000) });
    const body = (await response.json()) as { status?: string };
    return body.status ?? null;
  } catch {
    return null;
  }
}

export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
