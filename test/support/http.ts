/**
 * Plain HTTP helpers for tests: a fetch that returns the status, the raw text and the parsed
 * envelope, and a raw-socket sender for requests fetch refuses to build (bad request lines,
 * control characters, duplicate headers).
 */
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';

export interface Envelope<T = unknown> {
  code: string;
  msg: string;
  requestTime: number;
  data: T;
}

export interface ApiResponse<T = unknown> {
  status: number;
  text: string;
  /** The parsed body; null when the body is not JSON. */
  body: Envelope<T> | null;
  headers: Headers;
}

export function parseEnvelope<T>(text: string): Envelope<T> | null {
  try {
    return JSON.parse(text) as Envelope<T>;
  } catch {
    return null;
  }
}

export async function send<T = unknown>(url: string, init: RequestInit = {}): Promise<ApiResponse<T>> {
  const response = await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, text, body: parseEnvelope<T>(text), headers: response.headers };
}

export function publicGet<T = unknown>(baseUrl: string, path: string, query = ''): Promise<ApiResponse<T>> {
  return send<T>(`${baseUrl}${path}${query ? `?${query}` : ''}`);
}

export interface RawResponse {
  status: number;
  head: string;
  body: string;
}

/** Writes `request` bytes to the server as they are and reads one response (or EOF). */
export function sendRaw(baseUrl: string, request: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('raw request timed out'));
    }, timeoutMs);
    const finish = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split < 0 ? text : text.slice(0, split);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const rawBody = split < 0 ? '' : text.slice(split + 4);
      resolve({ status, head, body: Buffer.from(rawBody, 'latin1').toString('utf8') });
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, split))?.[1];
      if (
        split >= 0 &&
        length !== undefined &&
        Buffer.byteLength(text, 'latin1') >= split + 4 + Number(length)
      ) {
        socket.end();
      }
    });
    socket.on('end', finish);
    socket.on('close', () => finish());
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (chunks.length > 0) finish();
      else reject(error);
    });
    socket.write(request);
  });
}

/** Starts `server` on 127.0.0.1 at a free port; gives the port. */
export async function listenOnLoopback(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Stops `server`, closing the connections node:http holds. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
