/**
 * bourse-admin reset, and the documented way of running the CLI, `npm run admin -- …`, whose
 * stdout must be the JSON alone (the repository's .npmrc keeps npm's script banner off it),
 * so that `| jq` works.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { runCli } from '../../src/admin/cli.ts';
import { REPO_ROOT } from '../support/child.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';

const run = promisify(execFile);

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, env, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stdout, stderr };
}

/** The environment without what an outer npm exported, so only the repository's .npmrc speaks. */
function withoutNpm(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  return { ...clean, ...env };
}

test('bourse-admin reset when --yes is missing refuses, and with it resets and prints the new demo key', async (t) => {
  const server = await serverFor(t);
  const env = { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
  const before = server.credentials.apiKey;
  const refused = await cli(['reset'], env);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /add --yes/);
  assert.equal(server.credentials.apiKey, before, 'nothing was reset');
  assert.equal((await cli(['reset', 'now', '--yes'], env)).code, 2);
  const done = await cli(['reset', '--yes'], env);
  assert.equal(done.code, 0, done.stderr);
  const answer = JSON.parse(done.stdout) as { demo: { apiKey: string; uid: string } };
  assert.notEqual(answer.demo.apiKey, before);
  assert.equal(server.credentials.apiKey, answer.demo.apiKey);
});

test('npm run admin when piped prints only the JSON on stdout', { timeout: 60_000 }, async (t) => {
  const server = await serverFor(t);
  const env = withoutNpm({ BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN });
  const ok = await run('npm', ['run', 'admin', '--', 'accounts', 'get', server.credentials.uid], {
    cwd: REPO_ROOT,
    env,
  });
  assert.equal((JSON.parse(ok.stdout) as { uid: string }).uid, server.credentials.uid, ok.stdout);
  await assert.rejects(
    run('npm', ['run', 'admin', '--', 'accounts', 'get', '42'], { cwd: REPO_ROOT, env }),
    (error: { code: number; stdout: string; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.equal(error.stdout, '', 'a refused call prints nothing on stdout');
      assert.match(error.stderr, /"code":"40034"/);
      return true;
    },
  );
});
