/**
 * ccxt's bitget class (ccxt.pro for watch*), unmodified, on a classic account of a server at
 * its defaults: every method its `has` map marks true works, or has a verdict saying why not
 * (test/conformance/verdict.ts; docs/endpoints.md lists them).
 */
import { test } from 'node:test';
import { runCcxtSuite } from './ccxt-run.ts';
import { CONCURRENCY } from './harness.ts';

test(
  'ccxt bitget when driven on a classic account works for every method of its has map',
  { concurrency: CONCURRENCY },
  (t) => runCcxtSuite(t, 'classic'),
);
