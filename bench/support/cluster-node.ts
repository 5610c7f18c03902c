/**
 * A bourse process of a cluster bench (an engine or an edge), started as `npm start` would
 * with its own data directory; resolves once it has printed `ready`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT } from './bourse-child.ts';

export interface Node {
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function spawnNode(env: Record<string, string>, ready: string): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-cluster-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), BOURSE_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let waited = 0; !output.includes(ready); waited += 20) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
