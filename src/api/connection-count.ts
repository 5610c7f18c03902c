/**
 * Open TCP connections of the HTTP server (kept-alive REST connections and upgraded WebSocket
 * ones alike), counted from the server's own events so a scrape reads a number, not a callback
 * (`server.getConnections` is asynchronous and walks the handles).
 */
import type { Server } from 'node:net';

export interface ConnectionCount {
  readonly connectionCount: number;
}

export function countConnections(server: Server): ConnectionCount {
  let open = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => (open -= 1));
  });
  return {
    get connectionCount() {
      return open;
    },
  };
}
