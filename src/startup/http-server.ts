/**
 * The HTTP server, bound first: before the store is opened, so a port clash, a bad HOST or a
 * privileged PORT stops a start before anything is made in the data directory. Until `open`
 * the gate (runtime/http-gate.ts) answers every request and WebSocket upgrade with a 503.
 */
import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_BODY_BYTES, type App } from '../api/app.ts';
import { failure } from '../api/envelope.ts';
import { wireError } from '../api/error-map.ts';
import { installFastPath, type FastPath } from '../api/http1/fast-path.ts';
import { HttpGate } from '../runtime/http-gate.ts';
import { listen } from './listen.ts';

export interface BoundHttp {
  server: Server;
  gate: HttpGate;
  /** The HTTP/1.1 fast path; null when BOURSE_HTTP_FAST_PATH is off. */
  fastPath: FastPath | null;
  /** The URL clients use (the bound address and port). */
  url: string;
  /** Requests go to `app` from now on; what `attachWebSocket` attaches takes the upgrades over. */
  open<T>(app: App, attachWebSocket: () => T): T;
  /** Closes the port and every connection (a start that failed). */
  close(): Promise<void>;
}

/**
 * A request node:http cannot parse (bad request line, control characters, oversize headers)
 * still gets the venue envelope rather than node's bare "400 Bad Request".
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, nowMs: number): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const wire = wireError('PARAM_INVALID', 'v2', ['malformed HTTP request']);
  const text = JSON.stringify(failure(wire.code, wire.msg, nowMs));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
  );
}

export async function bindHttp(
  settings: { host: string; port: number; httpFastPath: boolean },
  wallNow: () => number,
): Promise<BoundHttp> {
  const gate = new HttpGate(wallNow);
  const server = createServer({ keepAlive: true }, (request, response) => gate.handle(request, response));
  const fastPath = settings.httpFastPath ? installFastPath(server, gate, MAX_BODY_BYTES) : null;
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, wallNow()),
  );
  const stopRefusingUpgrades = gate.refuseUpgrades(server);
  const url = await listen(server, settings.host, settings.port);
  return {
    server,
    gate,
    fastPath,
    url,
    open(app, attachWebSocket) {
      stopRefusingUpgrades();
      const attached = attachWebSocket();
      gate.open(app);
      return attached;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        fastPath?.closeAllConnections();
      });
    },
  };
}
