// Runs every test/**/*.test.ts with node's test runner. Node 20's runner does not expand glob
// patterns itself, so this finds the files and hands them over; extra arguments pass through
// (e.g. `npm test -- --test-name-pattern=spot`).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return find(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = find('test').sort();
const args = ['--import', 'tsx', '--test', '--test-concurrency=2', ...process.argv.slice(2), ...files];
const child = spawn(process.execPath, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
