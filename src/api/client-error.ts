/**
 * node:http's malformed requests. A request node:http cannot parse (bad request line, control
 * characters, oversize headers) gets the venue's envelope rather than node's bare "400 Bad
 * Request", and the connection closes: nothing after it on the connection can be framed.
 *
 * Invariant: requests pipelined before the malformed one on the same connection were parsed
 * and are being executed; each of them is answered, in order, before the malformed one's 400
 * and the close. node:http writes a connection's answers in request order, so the 400 waits
 * until every answer started on the connection has finished.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { failure } from './envelope.ts';
import { wireError } from './error-map.ts';

interface Pending {
  answers: number;
  /** Called once no answer is pending. */
  idle: (() => void)[];
}

const pendingBySocket = new WeakMap<Duplex, Pending>();

function track(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  let pending = pendingBySocket.get(socket);
  if (!pending) {
    pending = { answers: 0, idle: [] };
    pendingBySocket.set(socket, pending);
  }
  const entry = pending;
  entry.answers += 1;
  // 'close' follows 'finish', and also comes when the connection dies first.
  response.once('close', () => {
    entry.answers -= 1;
    if (entry.answers === 0) for (const resume of entry.idle.splice(0)) resume();
  });
}

/** Counts the answers pending on each connection; call before the server serves a request. */
export function watchPendingAnswers(server: Server): void {
  server.prependListener('request', track);
}

/** The 'clientError' handler: the envelope once the connection's earlier answers are out, then close. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, nowMs: () => number): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const answer = () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const wire = wireError('PARAM_INVALID', 'v2', ['malformed HTTP request']);
    const text = JSON.stringify(failure(wire.code, wire.msg, nowMs()));
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
    );
  };
  const pending = pendingBySocket.get(socket);
  if (pending && pending.answers > 0) pending.idle.push(answer);
  else answer();
}
