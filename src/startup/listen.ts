/**
 * Binding the HTTP port (HOST, PORT), with errors that name the setting and say what to do
 * instead of node's bare `listen EADDRINUSE` or `getaddrinfo ENOTFOUND`.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const ANY_HOST_HINT = 'e.g. HOST=127.0.0.1 (this machine only) or HOST=0.0.0.0 (every interface)';

/** What went wrong, in terms of the settings, for a listen error. */
export function listenFailure(error: NodeJS.ErrnoException, host: string, port: number): Error {
  const where = `${host}:${port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return new Error(
        `PORT ${port} on ${host} is in use by another process (EADDRINUSE): stop it, or set PORT to a free ` +
          'port (PORT=0 picks one)',
      );
    case 'EACCES':
    case 'EPERM':
      return new Error(
        port > 0 && port < 1024
          ? `PORT ${port} needs privileges on this system (${error.code}: ports below 1024 are reserved): set ` +
              'PORT to 1024 or above (e.g. 8080), or give node the capability to bind low ports (CAP_NET_BIND_SERVICE)'
          : `listening on ${where} (HOST, PORT) is not permitted (${error.code}): pick another PORT or HOST`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new Error(
        `HOST ${host} does not resolve to an address (getaddrinfo ${error.code}): set HOST to an address ` +
          `of this machine, ${ANY_HOST_HINT}`,
      );
    case 'EADDRNOTAVAIL':
      return new Error(
        `HOST ${host} is not an address of this machine (EADDRNOTAVAIL): set HOST to one of its ` +
          `addresses, ${ANY_HOST_HINT}`,
      );
    default:
      return new Error(`cannot listen on ${where} (HOST, PORT): ${error.message}`);
  }
}

/** Listens on `host`:`port`; resolves with the URL clients use, rejects with `listenFailure`. */
export function listen(server: Server, host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(listenFailure(error, host, port));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address() as AddressInfo;
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve(`http://${shown}:${address.port}`);
    });
  });
}
