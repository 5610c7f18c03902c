/**
 * The `bitget-api` SDK's RestClientV2, unmodified, on classic accounts of a server at its
 * defaults: every method of the spot, futures, margin, account, wallet, convert and broker
 * families works or has a verdict saying why not (docs/endpoints.md lists them).
 */
import { test } from 'node:test';
import { CONCURRENCY } from './harness.ts';
import { runSdkSuite } from './sdk-run.ts';

test(
  'bitget-api RestClientV2 when driven on classic accounts works for every method of its families',
  { concurrency: CONCURRENCY },
  (t) => runSdkSuite(t, 'RestClientV2'),
);
