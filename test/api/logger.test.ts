/** The request log: one JSON line per request with fixed fields; secret-looking fields redacted. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createLogger, redact } from '../../src/api/logger.ts';

test('redact when fields look secret replaces their values', () => {
  const fields = {
    apiKey: 'bg_1',
    secretKey: 's',
    passphrase: 'p',
    'access-sign': 'x',
    authorization: 'Bearer t',
    operatorToken: 't',
    password: 'pw',
    path: '/api/v2/spot/account/info',
    uid: '1000000001',
  };
  assert.deepEqual(redact(fields), {
    apiKey: '[redacted]',
    secretKey: '[redacted]',
    passphrase: '[redacted]',
    'access-sign': '[redacted]',
    authorization: '[redacted]',
    operatorToken: '[redacted]',
    password: '[redacted]',
    path: '/api/v2/spot/account/info',
    uid: '1000000001',
  });
});

test('createLogger when given a sink writes one JSON line per call', () => {
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(line));
  assert.equal(logger.enabled, true);
  logger.request({
    time: '2024-01-01T00:00:00.000Z',
    ip: '127.0.0.1',
    method: 'GET',
    path: '/api/v2/public/time',
    uid: '',
    code: '00000',
    status: 200,
    latencyMs: 0.5,
  });
  logger.error('store error', { error: 'disk full', secretKey: 'abc' });
  assert.equal(lines.length, 2);
  const request = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  assert.deepEqual(Object.keys(request).sort(), [
    'code',
    'ip',
    'kind',
    'latencyMs',
    'method',
    'path',
    'status',
    'time',
    'uid',
  ]);
  const error = JSON.parse(lines[1] ?? '') as Record<string, unknown>;
  assert.deepEqual(
    [error.level, error.message, error.error, error.secretKey],
    ['error', 'store error', 'disk full', '[redacted]'],
  );
});

test('createLogger when logging is off writes nothing and says so', () => {
  const logger = createLogger(null);
  assert.equal(logger.enabled, false);
  assert.doesNotThrow(() => logger.info('started', { url: 'http://x' }));
});
