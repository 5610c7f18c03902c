/**
 * The HTTP server, bound first: before the store is opened, so a port clash, a bad HOST or a
 * privileged PORT stops a start before anything is made in the data directory. Until `open`
 * the gate (runtime/http-gate.ts) answers every request and WebSocket upgrade with a 503.
 */
import { createServer, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { MAX_BODY_BYTES, type App } from '../api/app.ts';
import { answerClientError, watchPendingAnswers } from '../api/client-error.ts';
import { installFastPath, type FastPath } from '../api/http1/fast-path.ts';
import { capConnections, nodeServerOptions, type HttpLimits } from '../api/http1/timeouts.ts';
import { isConsolePath, serveConsole } from '../api/console-assets.ts';
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

function consoleBuildFailed(error: unknown): void {
  process.stderr.write(
    `bourse: the console could not be built: ${error instanceof Error ? error.message : String(error)}\n`,
  );
}

export async function bindHttp(
  settings: { host: string; port: number; httpFastPath: boolean; http: HttpLimits },
  wallNow: () => number,
): Promise<BoundHttp> {
  const gate = new HttpGate(wallNow);
  // Head and request timeouts for node:http and the fast path alike, and the connection cap.
  // The console's files (/console) are answered before the gate: they need no store.
  const server = createServer(nodeServerOptions(settings.http), (request, response) =>
    serveConsole(request, response, () => gate.handle(request, response), consoleBuildFailed),
  );
  capConnections(server, settings.http);
  const fastPath = settings.httpFastPath
    ? installFastPath(server, gate, MAX_BODY_BYTES, isConsolePath)
    : null;
  watchPendingAnswers(server);
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, wallNow),
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
