/**
 * scripts/test.mjs, what `npm test` runs: files named on the command line are run instead of
 * all of them, node's options pass through (one word or two), and a directory without test
 * files is an error rather than a run of nothing. The fixture is a *.fixture.ts file, so a
 * full run does not pick it up.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../support/child.ts';

const run = promisify(execFile);
const FIXTURE = 'test/support/fixtures/runner-sample.fixture.ts';

async function runner(...args: string[]): Promise<string> {
  // Without the variable this runner sets for its own children, which would make the nested
  // runner report to it instead of printing.
  const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
  const { stdout } = await run(process.execPath, ['scripts/test.mjs', '--test-reporter=tap', ...args], {
    cwd: REPO_ROOT,
    env,
  });
  return stdout;
}

const count = (output: string, what: string) =>
  Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(output)?.[1]);

test('npm test when a file is named runs that file only', { timeout: 60_000 }, async () => {
  const output = await runner(FIXTURE);
  assert.equal(count(output, 'tests'), 2, output);
  assert.equal(count(output, 'pass'), 2);
  assert.match(output, /alpha when run passes/);
});

test(
  'npm test when a name pattern is given, as one word or two, filters the tests',
  { timeout: 60_000 },
  async () => {
    for (const pattern of [['--test-name-pattern=alpha'], ['--test-name-pattern', 'alpha']]) {
      const output = await runner(...pattern, FIXTURE);
      assert.equal(count(output, 'pass'), 1, `${pattern.join(' ')}: ${output}`);
      assert.equal(count(output, 'skipped'), 1);
    }
  },
);

test('npm test when a directory holds no test file says so and fails', { timeout: 60_000 }, async () => {
  await assert.rejects(runner('test/support/fixtures'), (error: { code: number; stderr: string }) => {
    assert.equal(error.code, 1);
    assert.match(error.stderr, /no test files \(\*\.test\.ts\) under test\/support\/fixtures/);
    return true;
  });
});

test(
  'npm test when a test times out with a server still listening ends the run and reports it',
  { timeout: 60_000 },
  async () => {
    await assert.rejects(
      runner('test/support/fixtures/runner-hang.fixture.ts'),
      (error: { code: number; stdout: string }) => {
        assert.equal(error.code, 1);
        assert.match(error.stdout, /test timed out after 200ms/);
        return true;
      },
    );
  },
);
