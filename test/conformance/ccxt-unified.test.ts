/**
 * ccxt's bitget class (ccxt.pro for watch*), unmodified, on a unified account (`options.uta = true`) of a server at
 * its defaults: every method its `has` map marks true works, or has a verdict saying why not
 * (test/conformance/verdict.ts; docs/endpoints.md lists them).
 */
import { test } from 'node:test';
import { runCcxtSuite } from './ccxt-run.ts';
import { CONCURRENCY } from './harness.ts';

test(
  'ccxt bitget when driven on a unified account (`options.uta = true`) works for every method of its has map',
  { concurrency: CONCURRENCY },
  (t) => runCcxtSuite(t, 'unified'),
);
