/**
 * Runs the load generator in its own process (so the server under test has its process and
 * event loop to itself): `node --import tsx bench/support/load-process.ts '<json input>'`
 * prints the result as JSON. The request is a signed GET, or an unsigned one.
 */
import { createHmac } from 'node:crypto';
import { runLoad, type LoadResult } from './load.ts';

export interface LoadInput {
  host: string;
  port: number;
  path: string;
  connections: number;
  durationMs: number;
  signing: { apiKey: string; secretKey: string; passphrase: string } | null;
}

function buildRequest(input: LoadInput): string {
  const lines = [`GET ${input.path} HTTP/1.1`, `Host: ${input.host}:${input.port}`, 'Connection: keep-alive'];
  if (input.signing) {
    const timestamp = String(Date.now());
    const signature = createHmac('sha256', input.signing.secretKey)
      .update(`${timestamp}GET${input.path}`)
      .digest('base64');
    lines.push(
      `ACCESS-KEY: ${input.signing.apiKey}`,
      `ACCESS-SIGN: ${signature}`,
      `ACCESS-TIMESTAMP: ${timestamp}`,
      `ACCESS-PASSPHRASE: ${input.signing.passphrase}`,
      'Content-Type: application/json',
      'locale: en-US',
    );
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}

const input = JSON.parse(process.argv[2] ?? '{}') as LoadInput;
const result: LoadResult = await runLoad({
  host: input.host,
  port: input.port,
  connections: input.connections,
  durationMs: input.durationMs,
  buildRequest: () => buildRequest(input),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
