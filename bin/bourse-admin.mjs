#!/usr/bin/env node
// bourse-admin: the operator CLI (src/admin/cli.ts), run through tsx's loader so no build
// step is needed. `npx bourse-admin --help` or `npm run admin -- --help`.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/admin/cli.ts');
process.exitCode = await runCli(process.argv.slice(2), process.env, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
