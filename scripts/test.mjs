// `npm test`: runs test/**/*.test.ts with node's test runner, which in Node 20 does not expand
// glob patterns itself. Arguments pass through: `npm test -- --test-name-pattern=spot` runs
// every file with that filter; files or directories named on the command line
// (`npm test -- test/admin/cli.test.ts test/engine`) are run instead of all of them. A word is
// taken for a path when it does not start with `-` and is not the value of an option given as
// two words (`--test-name-pattern spot`).
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** node options (of those a test run uses) whose value may follow as the next word. */
const TAKES_VALUE = new Set([
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-concurrency',
  '--test-timeout',
  '--test-shard',
  '--import',
  '--require',
  '-r',
  '--conditions',
  '-C',
]);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The arguments split into options (with their values) and the paths to run. */
function splitArguments(args) {
  const options = [];
  const paths = [];
  for (let at = 0; at < args.length; at += 1) {
    const arg = args[at];
    if (arg.startsWith('-')) {
      options.push(arg);
      if (TAKES_VALUE.has(arg) && at + 1 < args.length) options.push(args[(at += 1)]);
    } else paths.push(arg);
  }
  return { options, paths };
}

/** A directory stands for the test files under it; a file for itself (node reports a missing one). */
function expand(path) {
  let isDirectory = false;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch {
    // node's runner names the missing file
  }
  return isDirectory ? find(path).sort() : [path];
}

const { options, paths } = splitArguments(process.argv.slice(2));
const files = paths.length > 0 ? paths.flatMap(expand) : find('test').sort();
if (files.length === 0) {
  process.stderr.write(`no test files (*.test.ts) under ${paths.join(', ')}\n`);
  process.exit(1);
}
// --test-force-exit: a file whose test timed out with a server still listening (or a timer
// still set) ends when its tests have, instead of holding the whole run open for ever.
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-force-exit', ...options, ...files];
const child = spawn(process.execPath, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
