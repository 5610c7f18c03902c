/**
 * node:http's malformed requests. A request node:http cannot parse (bad request line, control
 * characters, oversize headers) gets the venue's envelope rather than node's bare "400 Bad
 * Request", and the connection closes: nothing after it on the connection can be framed.
 *
 * Invariant: requests pipelined before the malformed one on the same connection were received
 * whole and are being executed; each of them is answered, in order, before the malformed
 * one's 400 and the close. node:http writes a connection's answers in request order, so the
 * 400 waits until every request received whole has its answer sent. A request whose body did
 * not arrive whole (the client closed mid-body) is not waited for: the close aborts it.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { failure } from './envelope.ts';
import { wireError } from './error-map.ts';

interface Pending {
  /** Requests of the connection not answered yet. */
  open: Set<IncomingMessage>;
  /** Called once no request that was received whole is still unanswered. */
  idle: (() => void)[];
}

const pendingBySocket = new WeakMap<Duplex, Pending>();

/**
 * Whether a request received whole (so being executed) still awaits its answer. A request
 * whose body never arrived whole is not waited for: the error is in it (the client went away
 * mid-body, or sent a malformed body), and closing the connection aborts it.
 */
function awaitsAnswer(pending: Pending): boolean {
  for (const request of pending.open) if (request.complete) return true;
  return false;
}

function track(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  let pending = pendingBySocket.get(socket);
  if (!pending) {
    pending = { open: new Set(), idle: [] };
    pendingBySocket.set(socket, pending);
  }
  const entry = pending;
  entry.open.add(request);
  // 'close' follows 'finish', and also comes when the connection dies first.
  response.once('close', () => {
    entry.open.delete(request);
    if (!awaitsAnswer(entry)) for (const resume of entry.idle.splice(0)) resume();
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
  if (pending && awaitsAnswer(pending)) pending.idle.push(answer);
  else answer();
}
