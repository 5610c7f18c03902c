/**
 * The `bitget-api` SDK's RestClientV3, unmodified, on unified accounts of a server at its
 * defaults: every method of the spot, futures, margin, account, wallet, convert and broker
 * families works or has a verdict saying why not (docs/endpoints.md lists them).
 */
import { test } from 'node:test';
import { CONCURRENCY } from './harness.ts';
import { runSdkSuite } from './sdk-run.ts';

test(
  'bitget-api RestClientV3 when driven on unified accounts works for every method of its families',
  { concurrency: CONCURRENCY },
  (t) => runSdkSuite(t, 'RestClientV3'),
);
